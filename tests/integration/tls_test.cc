// TLS and mutual TLS on moreaud's gRPC port, with the C++ client: who is
// served and who is refused in the handshake. Certificates are made at test
// time (make_test_pki.sh).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/integration/security_test_util.h"
#include "tests/integration/service_test_util.h"

namespace moreau::testing {
namespace {

class TlsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto pki = TestPki::Make();
    ASSERT_TRUE(pki.ok()) << pki.status();
    pki_ = std::move(*pki).release();
  }
  static void TearDownTestSuite() {
    delete pki_;
    pki_ = nullptr;
  }

  // A server with TLS (and client certificates required when `mutual`).
  std::unique_ptr<ServerProcess> Start(bool mutual) {
    auto process = ServerProcess::Start(pki_->ServerFlags(mutual));
    EXPECT_TRUE(process.ok()) << process.status();
    return process.ok() ? std::move(*process) : nullptr;
  }

  // A client of `server` with `tls` (unset: plaintext).
  static std::unique_ptr<client::Client> Connect(const ServerProcess& server,
                                                 std::optional<client::TlsOptions> tls) {
    client::ClientOptions options;
    options.timeout = absl::Seconds(20);
    options.tls = std::move(tls);
    return std::make_unique<client::Client>(server.address(), options);
  }

  static TestPki* pki_;
};
TestPki* TlsTest::pki_ = nullptr;

// A client that works: lists the models, creates, steps, streams.
void ExpectServed(client::Client& client) {
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::ListModelsResponse models, client.ListModels());
  EXPECT_GT(models.models_size(), 0);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::CreateInstancesResponse created,
                              client.CreateBuiltin("pendulum", 1));
  const std::string id = created.instance_ids(0);
  MOREAU_ASSERT_OK_AND_ASSIGN(v1::Observation obs, client.Step(id, Eigen::VectorXd::Zero(1), 10));
  EXPECT_EQ(obs.steps(), 10);
  std::unique_ptr<client::Client::Session> session = client.OpenSession();
  ASSERT_TRUE(session->Send(MakeStep(id, Eigen::VectorXd::Zero(1), 5)));
  v1::Observation streamed;
  ASSERT_TRUE(session->Receive(&streamed));
  EXPECT_EQ(streamed.steps(), 15);
  EXPECT_TRUE(session->Close().ok());
}

TEST_F(TlsTest, Tls_ServesAClientTrustingTheServersCa) {
  auto server = Start(/*mutual=*/false);
  ASSERT_NE(server, nullptr);
  ExpectServed(*Connect(*server, pki_->ClientTls("ca")));
  // A client certificate is accepted, not needed.
  ExpectServed(*Connect(*server, pki_->ClientTls("ca", "client")));
}

TEST_F(TlsTest, Tls_RefusesAPlaintextClient) {
  auto server = Start(/*mutual=*/false);
  ASSERT_NE(server, nullptr);
  auto client = Connect(*server, std::nullopt);
  EXPECT_EQ(client->ListModels().status().code(), absl::StatusCode::kUnavailable);
}

TEST_F(TlsTest, Tls_RefusesAClientTrustingAnotherCa) {
  auto server = Start(/*mutual=*/false);
  ASSERT_NE(server, nullptr);
  auto client = Connect(*server, pki_->ClientTls("other_ca"));
  EXPECT_EQ(client->ListModels().status().code(), absl::StatusCode::kUnavailable);
}

TEST_F(TlsTest, PlaintextServer_RefusesATlsClient) {
  auto server = ServerProcess::Start();
  ASSERT_TRUE(server.ok()) << server.status();
  auto client = Connect(**server, pki_->ClientTls("ca"));
  EXPECT_EQ(client->ListModels().status().code(), absl::StatusCode::kUnavailable);
}

TEST_F(TlsTest, Mtls_ServesAClientWithACertificateOfTheClientCa) {
  auto server = Start(/*mutual=*/true);
  ASSERT_NE(server, nullptr);
  ExpectServed(*Connect(*server, pki_->ClientTls("ca", "client")));
}

TEST_F(TlsTest, Mtls_RefusesAClientWithoutACertificate) {
  auto server = Start(/*mutual=*/true);
  ASSERT_NE(server, nullptr);
  auto client = Connect(*server, pki_->ClientTls("ca"));
  EXPECT_EQ(client->ListModels().status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(client->CreateBuiltin("pendulum", 1).status().code(), absl::StatusCode::kUnavailable);
}

TEST_F(TlsTest, Mtls_RefusesAClientCertificateOfAnotherCa) {
  auto server = Start(/*mutual=*/true);
  ASSERT_NE(server, nullptr);
  auto client = Connect(*server, pki_->ClientTls("ca", "other_client"));
  EXPECT_EQ(client->ListModels().status().code(), absl::StatusCode::kUnavailable);
}

TEST_F(TlsTest, Mtls_RefusesAPlaintextClient) {
  auto server = Start(/*mutual=*/true);
  ASSERT_NE(server, nullptr);
  auto client = Connect(*server, std::nullopt);
  EXPECT_EQ(client->ListModels().status().code(), absl::StatusCode::kUnavailable);
}

TEST(LoadTlsFiles, ReadsThePemFilesAndNamesAMissingOne) {
  auto dir = TempDir::Make();
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE((*dir)->Write("ca.pem", "CA").ok());
  ASSERT_TRUE((*dir)->Write("c.pem", "CERT").ok());
  ASSERT_TRUE((*dir)->Write("c.key", "KEY").ok());
  MOREAU_ASSERT_OK_AND_ASSIGN(
      client::TlsOptions tls,
      client::LoadTlsFiles((*dir)->Path("ca.pem"), (*dir)->Path("c.pem"), (*dir)->Path("c.key")));
  EXPECT_EQ(tls.root_certificates, "CA");
  EXPECT_EQ(tls.certificate_chain, "CERT");
  EXPECT_EQ(tls.private_key, "KEY");
  const absl::Status missing = client::LoadTlsFiles((*dir)->Path("nope.pem"), "", "").status();
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.message().find("nope.pem"), std::string::npos) << missing;
  EXPECT_EQ(client::LoadTlsFiles("", (*dir)->Path("c.pem"), "").status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace moreau::testing
