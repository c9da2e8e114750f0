"""grpc.health.v1 and server reflection on a real moreaud, spoken with raw
bytes (no generated stubs: any gRPC client can do the same)."""
import grpc


def identity(x):
    return x


def test_health_check_reports_serving(address):
    with grpc.insecure_channel(address) as channel:
        check = channel.unary_unary("/grpc.health.v1.Health/Check",
                                    request_serializer=identity,
                                    response_deserializer=identity)
        # HealthCheckResponse{status: SERVING (1)} is field 1, varint 1.
        assert check(b"", timeout=10) == b"\x08\x01"
        # The named service is registered too.
        name = b"moreau.v1.Simulator"
        request = b"\x0a" + bytes([len(name)]) + name
        assert check(request, timeout=10) == b"\x08\x01"


def test_reflection_lists_the_simulator_service(address):
    with grpc.insecure_channel(address) as channel:
        info = channel.stream_stream(
            "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
            request_serializer=identity, response_deserializer=identity)
        # ServerReflectionRequest{list_services: ""} is field 7, empty string.
        responses = list(info(iter([b"\x3a\x00"]), timeout=10))
        assert len(responses) == 1
        assert b"moreau.v1.Simulator" in responses[0]
        assert b"grpc.health.v1.Health" in responses[0]
        # The service's file descriptor is served too, so tools can call it.
        symbol = b"moreau.v1.Simulator"
        request = b"\x22" + bytes([len(symbol)]) + symbol  # file_containing_symbol
        (file_response,) = list(info(iter([request]), timeout=10))
        assert b"moreau/v1/simulator.proto" in file_response
