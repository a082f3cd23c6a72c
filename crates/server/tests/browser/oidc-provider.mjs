// A real OpenID Connect provider (panva's certified oidc-provider) for the single sign-on tests
// (crates/server/tests/e2e/sso.rs): authorization code flow, PKCE required, ID tokens signed RS256
// with its own development keys, e-mail claims served from userinfo (as code flows do).
//
// usage: node oidc-provider.mjs '<json>'   with json = {
//   clients: [{ client_id, client_secret (none: a public client), redirect_uris }],
//   emails: a JSON file { subject: address } read at each sign-in (an address changed at the
//     provider), optional }
// Listens on 127.0.0.1 (a free port), prints one JSON line { issuer } and runs until killed.
//
// Accounts: the development login form takes any login, which becomes the subject:
//   "alice@bank.example"            -> that address (or the emails file's), verified
//   "unverified:bob@bank.example"   -> the address is not verified
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import Provider from "oidc-provider";

const args = JSON.parse(process.argv[2] ?? "{}");

function claimsOf(sub) {
  if (sub.startsWith("unverified:")) {
    const email = sub.slice("unverified:".length);
    return { sub, email, email_verified: false, name: email };
  }
  const text = args.emails && existsSync(args.emails) ? readFileSync(args.emails, "utf8").trim() : "";
  const changed = text ? JSON.parse(text) : {};
  const email = changed[sub] ?? sub;
  return { sub, email, email_verified: true, name: email };
}

const server = http.createServer();
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: (args.clients ?? []).map((c) => ({
    client_id: c.client_id,
    ...(c.client_secret ? { client_secret: c.client_secret } : {}),
    token_endpoint_auth_method: c.client_secret ? "client_secret_basic" : "none",
    redirect_uris: c.redirect_uris,
    grant_types: ["authorization_code"],
    response_types: ["code"],
  })),
  pkce: { required: () => true },
  scopes: ["openid", "email", "profile"],
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  cookies: { keys: ["signet-test-cookies"] },
  findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => claimsOf(id) }),
  // First-party client: the grant is given without a consent screen.
  loadExistingGrant: async (ctx) => {
    const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) {
      return ctx.oidc.provider.Grant.find(grantId);
    }
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope("openid email profile");
    await grant.save();
    return grant;
  },
  features: { devInteractions: { enabled: true } },
});
// The development interactions warn on stderr at start; keep stdout for the one JSON line.
server.on("request", provider.callback());
console.log(JSON.stringify({ issuer }));
