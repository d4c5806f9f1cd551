#!/usr/bin/env node
// Prints the authentication secret the login page would send for an account (the k6 scripts' AUTH_SECRET): the
// salt from the platform, Argon2id in Node. The password is read from standard input, never from the command line.
//   node load/bench/auth-secret.mjs https://whistle.example ada@acme.example < password.txt
import { authSecretFor } from './staff-keys.mjs';

const [baseUrl, username] = process.argv.slice(2);
if (!baseUrl || !username) {
  console.error('usage: node load/bench/auth-secret.mjs BASE_URL USERNAME < password');
  process.exit(2);
}
let password = '';
for await (const chunk of process.stdin) password += chunk;
console.log(await authSecretFor(baseUrl, username, password.replace(/\r?\n$/, '')));
