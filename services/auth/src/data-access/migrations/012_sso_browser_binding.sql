-- SAML sign-in bound to the browser that started it (no login CSRF): the SHA-256 of the nonce in that browser's
-- whistle_sso cookie goes with the AuthnRequest, then with the code the answer becomes; /sso/token redeems the
-- code only with that cookie. Requests and codes from before have none and are refused (minutes of sign-ins).

alter table auth.saml_request add column browser_binding text;
alter table auth.one_time_secret add column browser_binding text;
