import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { selfSignedCertificate } from '@whistle/test-support';
import { freePort, waitForHttp } from './free-port';
import { startProcess, type RunningProcess } from './process-group';

/** Where Debian's `simplesamlphp` package (1.19.7 in bookworm) puts its web root. */
const SIMPLESAMLPHP_WWW = '/usr/share/simplesamlphp/www';

/**
 * Why SimpleSAMLphp cannot run on this machine, or undefined when it can: the package, PHP's CLI (its built-in
 * web server) and the DOM extension (php-xml) it signs and parses XML with. scripts/ensure-test-infra.sh installs them.
 */
export function simpleSamlPhpUnavailable(): string | undefined {
  if (!existsSync(path.join(SIMPLESAMLPHP_WWW, 'index.php')))
    return `SimpleSAMLphp is not installed (no ${SIMPLESAMLPHP_WWW}; apt-get install simplesamlphp php-cli php-xml)`;
  const modules = spawnSync('php', ['-m'], { encoding: 'utf8' });
  if (modules.error || modules.status !== 0) return 'PHP’s CLI is not installed (apt-get install php-cli)';
  if (!modules.stdout.split('\n').includes('dom'))
    return 'PHP has no DOM extension, which SimpleSAMLphp needs (apt-get install php-xml)';
  return undefined;
}

export interface IdpUser {
  username: string;
  password: string;
  /** The `mail` attribute, which is also the NameID (format emailAddress) Whistle receives. */
  email: string;
}

export interface SimpleSamlPhpIdp {
  readonly baseUrl: string;
  /** The IdP's metadata URL, which is also its entity id: an admin reads the SSO URL and certificate there. */
  readonly metadataUrl: string;
  readonly process: RunningProcess;
  /**
   * The NameID the IdP sends Whistle from now on: `emailAddress` (the format Whistle's metadata asks for) with the
   * `mail` attribute as its value, or `transient`, an opaque id, as SimpleSAMLphp sends when the admin overrides the
   * imported format (Whistle then reads the e-mail from the `mail` attribute). SimpleSAMLphp includes its metadata
   * files on every request and its PHP server runs without OPcache, so this takes effect at once.
   */
  useNameIdFormat(format: NameIdFormat): Promise<void>;
  close(): Promise<void>;
}

type NameIdFormat = 'emailAddress' | 'transient';

/** Whistle's SP metadata, imported as it is served, and where its NameID comes from. */
function writeServiceProviderEntry(metadataDir: string, format: NameIdFormat) {
  const nameId =
    format === 'emailAddress'
      ? "$sp['simplesaml.nameidattribute'] = 'mail';"
      : "$sp['NameIDFormat'] = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';";
  return writeFile(
    path.join(metadataDir, 'saml20-sp-remote.php'),
    `<?php
$xml = file_get_contents(__DIR__ . '/whistle-sp.xml');
foreach (\\SimpleSAML\\Metadata\\SAMLParser::parseDescriptorsString($xml) as $entity) {
    $sp = $entity->getMetadata20SP();
    ${nameId}
    $metadata[$sp['entityid']] = $sp;
}
`,
  );
}

/** A PHP single-quoted string literal. */
const php = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * SimpleSAMLphp as a company's identity provider, run by PHP's built-in web server on loopback with a private
 * configuration in a temporary folder (SIMPLESAMLPHP_CONFIG_DIR): a hosted SAML 2.0 IdP signing with a fresh key,
 * users from exampleauth:UserPass, and one service provider imported from the SP metadata XML Whistle serves at its
 * entity id — parsed by SimpleSAMLphp's own metadata parser, as its admin's metadata converter does. The NameID
 * Whistle asks for (emailAddress) is taken from the `mail` attribute, the setting an IdP admin adds for Whistle.
 */
export async function startSimpleSamlPhp(options: {
  serviceProviderMetadata: string;
  users: IdpUser[];
}): Promise<SimpleSamlPhpIdp> {
  const root = await mkdtemp(path.join(tmpdir(), 'whistle-simplesamlphp-'));
  const dirs = Object.fromEntries(
    ['config', 'metadata', 'cert', 'tmp', 'sessions'].map((name) => [name, path.join(root, name)]),
  );
  await Promise.all(Object.values(dirs).map((dir) => mkdir(dir)));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const { cert, key } = selfSignedCertificate();

  await Promise.all([
    writeFile(path.join(dirs.cert, 'idp.crt'), cert),
    writeFile(path.join(dirs.cert, 'idp.key'), key, { mode: 0o600 }),
    writeFile(path.join(dirs.metadata, 'whistle-sp.xml'), options.serviceProviderMetadata),
    writeFile(
      path.join(dirs.config, 'config.php'),
      `<?php
$config = [
    'baseurlpath' => ${php(`${baseUrl}/`)},
    'certdir' => ${php(`${dirs.cert}/`)},
    'metadatadir' => ${php(`${dirs.metadata}/`)},
    'tempdir' => ${php(dirs.tmp)},
    'loggingdir' => ${php(dirs.tmp)},
    'logging.handler' => 'stderr',
    'logging.level' => SimpleSAML\\Logger::NOTICE,
    'secretsalt' => ${php(randomBytes(24).toString('hex'))},
    'auth.adminpassword' => ${php(randomBytes(24).toString('hex'))},
    'technicalcontact_name' => 'Whistle tests',
    'technicalcontact_email' => 'na@example.org',
    'timezone' => 'UTC',
    'language.default' => 'en',
    'enable.saml20-idp' => true,
    'module.enable' => ['exampleauth' => true],
    // Plain HTTP on loopback: a Secure or SameSite=None cookie would never come back.
    'session.cookie.secure' => false,
    'session.cookie.samesite' => 'Lax',
    'store.type' => 'phpsession',
];
`,
    ),
    writeFile(
      path.join(dirs.config, 'authsources.php'),
      `<?php
$config = [
    'admin' => ['core:AdminPassword'],
    'whistle-staff' => [
        'exampleauth:UserPass',
${options.users.map((user) => `        ${php(`${user.username}:${user.password}`)} => ['mail' => [${php(user.email)}]],`).join('\n')}
    ],
];
`,
    ),
    writeFile(
      path.join(dirs.metadata, 'saml20-idp-hosted.php'),
      `<?php
$metadata['__DYNAMIC:1__'] = [
    'host' => '__DEFAULT__',
    'privatekey' => 'idp.key',
    'certificate' => 'idp.crt',
    'auth' => 'whistle-staff',
];
`,
    ),
    writeServiceProviderEntry(dirs.metadata, 'emailAddress'),
  ]);

  // OPcache is on for PHP's built-in server (only `enable_cli` is off by default) and checks a cached file's mtime at
  // most every 2 s (revalidate_freq): a metadata file useNameIdFormat rewrites could still be served as it was.
  const running = startProcess(
    'simplesamlphp',
    'php',
    [
      '-d',
      'opcache.enable=0',
      '-d',
      `session.save_path=${dirs.sessions}`,
      '-S',
      `127.0.0.1:${port}`,
      '-t',
      SIMPLESAMLPHP_WWW,
    ],
    { SIMPLESAMLPHP_CONFIG_DIR: dirs.config },
  );
  const metadataUrl = `${baseUrl}/saml2/idp/metadata.php`;
  try {
    await waitForHttp(metadataUrl, 60_000, running.output);
  } catch (error) {
    await running.stop();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return {
    baseUrl,
    metadataUrl,
    process: running,
    useNameIdFormat: (format) => writeServiceProviderEntry(dirs.metadata, format),
    async close() {
      await running.stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}
