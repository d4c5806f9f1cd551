import path from 'node:path';
import { rateLimitMigrations } from '@whistle/service-kit';
import { describeSchemaMigrations } from '@whistle/service-kit/testing';
import { AUTH_SCHEMA, authMigrations } from '../src/data-access/migrations';
import { tokenRevocations } from '../src/domain/account/token-revocations';

describeSchemaMigrations({
  beforeFiles: path.join(__dirname, 'fixtures/migrations-before-files.json'),
  // As service.ts migrates them.
  streams: [rateLimitMigrations(AUTH_SCHEMA), tokenRevocations.migrations, authMigrations],
  changedDefinition: {
    name: 'functions/end_legacy_company_key.sql',
    edit: (sql) => sql.replace('returning true\n', 'returning true -- the old way ends\n'),
    // Replaced, it keeps its grants: the tenant role alone may run it.
    live: `select pg_get_functiondef('auth.end_legacy_company_key'::regproc)
                  || ' tenant=' || has_function_privilege('whistle_tenant_auth', 'auth.end_legacy_company_key(uuid)', 'execute')
                  || ' public=' || coalesce((select bool_or(a.grantee = 0) from pg_proc p, aclexplode(p.proacl) a
                                              where p.oid = 'auth.end_legacy_company_key'::regproc), false) as text`,
    changed: /returning true -- the old way ends\n[\s\S]* tenant=true public=false$/,
  },
});
