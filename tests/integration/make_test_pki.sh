#!/usr/bin/env bash
# Makes a throw-away PKI for the TLS tests in DIR with Debian's openssl:
#   ca.pem ca.key                    the test CA
#   server.pem server.key            signed by ca, for 127.0.0.1 and localhost
#   client.pem client.key            signed by ca, for client authentication
#   other_ca.pem other_ca.key        an unrelated CA
#   other_client.pem other_client.key  signed by other_ca
# Keys are ECDSA P-256 (fast to make); certificates last two days.
set -euo pipefail
dir=${1:?usage: make_test_pki.sh DIR}
mkdir -p "$dir"
cd "$dir"

new_ca() {  # NAME CN
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
    -keyout "$1.key" -out "$1.pem" -subj "/CN=$2" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
}

new_leaf() {  # NAME CN CA EXTENSIONS
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$1.key" -out "$1.csr" -subj "/CN=$2" 2>/dev/null
  printf '%s\n' "$4" > "$1.ext"
  openssl x509 -req -in "$1.csr" -CA "$3.pem" -CAkey "$3.key" -CAcreateserial -days 2 \
    -extfile "$1.ext" -out "$1.pem" 2>/dev/null
  rm -f "$1.csr" "$1.ext"
}

new_ca ca "Moreau test CA"
new_ca other_ca "Another CA"
new_leaf server localhost ca \
  "subjectAltName=IP:127.0.0.1,DNS:localhost
extendedKeyUsage=serverAuth
basicConstraints=CA:FALSE"
new_leaf client "test client" ca \
  "extendedKeyUsage=clientAuth
basicConstraints=CA:FALSE"
new_leaf other_client "other client" other_ca \
  "extendedKeyUsage=clientAuth
basicConstraints=CA:FALSE"
