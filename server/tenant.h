// A tenant: who owns instances. Tenants are named only by the server's tokens
// file (--auth-tokens-file), never by client input; without tokens every
// caller is the tenant "".
#ifndef MOREAU_SERVER_TENANT_H_
#define MOREAU_SERVER_TENANT_H_

#include <string>

namespace moreau::server {

struct Tenant {
  std::string name;  // "" when the server runs without tokens
  // Most instances the tenant may have live at once; 0: only the server's
  // --max-instances applies.
  int max_instances = 0;
};

}  // namespace moreau::server

#endif  // MOREAU_SERVER_TENANT_H_
