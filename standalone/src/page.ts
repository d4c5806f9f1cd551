import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  DISCLOSER_LANGUAGE_CODES,
  EMBEDDED_COMPANY_VIEW_ID,
  LANGUAGE_NAMES,
  STAFF_LANGUAGE_CODES,
  landingText,
  languageDirection,
  languageFor,
  type CompanyPublicView,
  type DiscloserLanguage,
  type StaffLanguageCode,
} from '@whistle/contracts';

const DEFAULT_LANGUAGE = 'en';
/** The staff pages' languages, negotiated as a company's are (`languageFor`): English unless the browser prefers one. */
const STAFF_PAGE_LANGUAGES: CompanyPublicView['languages'] = {
  offered: [...STAFF_LANGUAGE_CODES],
  default: DEFAULT_LANGUAGE,
};

/** The shell's entry page, with what the first view of a discloser page needs announced in its head. */
export interface PageTemplate {
  /** Staff and public pages: the same with hints for what the shell fetches first (its manifest and translations). */
  readonly staff: string;
  /** /disclose pages of no known company: the same with preload hints for the discloser remote and its English. */
  readonly discloser: string;
  /**
   * A company's landing page drawn into the HTML, the view beside it (see `landingMarkup`), in the language the page
   * opens in for a browser preferring `preferred` (Accept-Language, most wanted first). Also what the success and
   * review pages are when opened by their address: they show what the page holds in memory (the code just sent, the
   * report just opened), which a new page never does, so mfe-disclose shows the landing page there (`leaveEmptyPage`).
   */
  landing(company: CompanyPublicView, preferred: readonly string[]): string;
  /**
   * The create page drawn (see `createMarkup`), the view beside it, saving its round trip, and its own files hinted.
   */
  create(company: CompanyPublicView, preferred: readonly string[]): string;
  /**
   * The staff login page drawn (see `loginMarkup`) in the staff language the browser prefers, English else, with the
   * shell's public pages' files hinted; `next` is where the sign-in leads (its `next` parameter), kept for SSO.
   */
  login(preferred: readonly string[], next: string | null): string;
  /** The CSP sources (`'sha256-…'`) of the stylesheets inlined into these pages (`inlineStylesheets`). */
  readonly styleHashes: readonly string[];
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);

/**
 * JSON inside `<script type="application/json">`: a data block, never run (so the CSP's script-src does not apply),
 * with every `<` escaped so no `</script>` or `<!--` in a company's text can end the block.
 */
const jsonBlock = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

type Strings = Record<string, Record<string, string>>;
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Strings;

/** `page` with its `<title>` saying `title` (a replacer function: a company's text may hold `$&` patterns). */
const titled = (page: string, title: string) =>
  page.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`);

/** `{{name}}` placeholders of i18next, filled and escaped. */
const fill = (text: string, values: Record<string, string> = {}) =>
  escapeHtml(text.replace(/\{\{(\w+)\}\}/g, (_match, key: string) => values[key] ?? ''));

/** Files of a remote's build its exposed module needs first: its entry, the module's own chunk, its stylesheets. */
function firstFiles(dist: string) {
  const manifest = JSON.parse(readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8'));
  const base: string = manifest.metaData.publicPath;
  const exposed = manifest.exposes[0].assets;
  return {
    base,
    manifest: `${base}mf-manifest.json`,
    entry: `${base}${manifest.metaData.remoteEntry.name}`,
    scripts: (exposed.js.sync as string[]).map((file) => `${base}${file}`),
    // The header's default logo, emitted by the build under a hashed name.
    defaultLogo: `${base}assets/${readdirSync(path.join(dist, 'assets')).find((file) => /^default-logo\.[0-9a-f]{8}\.svg$/.test(file))}`,
    styles: (exposed.css.sync as string[]).map((file) => `${base}${file}`),
  };
}

interface BuiltFiles {
  readonly js: readonly string[];
  readonly css: readonly string[];
}
/** A build's chunk-groups.json (tools/webpack/chunk-groups-plugin.js). */
interface ChunkGroups {
  readonly groups: Record<string, BuiltFiles & { readonly shared: readonly string[] }>;
  readonly provides: Record<string, BuiltFiles>;
}
const readChunkGroups = (dist: string) =>
  JSON.parse(readFileSync(path.join(dist, 'chunk-groups.json'), 'utf8')) as ChunkGroups;

/**
 * Hints for the files of a remote's named chunk groups and of the shared modules they consume: the shell's copy
 * where the shell provides one (it registers its share scope first, so its copy is the one loaded), else the
 * remote's own. The shared modules' own shared modules (React and the like) are on the page long before.
 */
function groupFiles(shell: ChunkGroups, remote: ChunkGroups, remoteBase: string, names: readonly string[]) {
  const files = names.flatMap((name) => {
    const group = remote.groups[name];
    if (!group) throw new Error(`The build at ${remoteBase} has no chunk group ${name}`);
    const shared = group.shared.map((key) =>
      shell.provides[key] ? { base: '/', ...shell.provides[key] } : { base: remoteBase, ...remote.provides[key] },
    );
    return [{ base: remoteBase, ...group }, ...shared];
  });
  const paths = (kind: keyof BuiltFiles) => [
    ...new Set(files.flatMap(({ base, [kind]: built = [] }) => built.map((file) => `${base}${file}`))),
  ];
  return { js: paths('js'), css: paths('css') };
}

function groupHints(shell: ChunkGroups, remote: ChunkGroups, remoteBase: string, names: readonly string[]): string[] {
  const { js, css } = groupFiles(shell, remote, remoteBase, names);
  return [
    ...css.map((href) => `<link rel="preload" href="${href}" as="style">`),
    ...js.map((href) => `<link rel="preload" href="${href}" as="script">`),
  ];
}

/** The shared modules the shell starts with on every page (React Router and the staff UI come later, if at all). */
const SHELL_FIRST_SHARED = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  'i18next',
  'react-i18next',
  '@whistle/ui',
];

/**
 * The shell's chunks of those modules, fetched in parallel with main.js, not after it: the ones main.js's share
 * scope loads for each (`"react-dom","19.3.1",()=>Promise.all([o.e(257),o.e(325)])…`), named by its chunk-file map.
 * The federation manifest lists more: other chunks holding a copy of a module (react-dom's is in two files), which
 * the page would download for nothing. A build that reads otherwise (development) falls back to the manifest.
 */
function shellFirstScripts(dist: string): string[] {
  const main = readFileSync(path.join(dist, 'main.js'), 'utf8');
  const fileNames = /\w+\.u=\w+=>\(?[^+]*\+"\."\+(\{[^}]*\})\[\w+\]\+"\.js"/.exec(main)?.[1];
  const hashes = fileNames ? (JSON.parse(fileNames.replace(/(\d+):/g, '"$1":')) as Record<string, string>) : {};
  const ids = SHELL_FIRST_SHARED.map((name) => {
    const loader = new RegExp(
      `"${name.replace(/[/.]/g, '\\$&')}","[^"]+",\\(\\)=>(Promise\\.all\\(\\[[^\\]]*\\]\\)|\\w+\\.e\\(\\d+\\))`,
    );
    return loader.exec(main)?.[1];
  });
  if (!fileNames || ids.includes(undefined)) return manifestScripts(dist);
  const chunks = new Set(ids.flatMap((loads) => [...loads!.matchAll(/\w+\.e\((\d+)\)/g)].map(([, id]) => id)));
  return [...chunks].filter((id) => hashes[id]).map((id) => `/${id}.${hashes[id]}.js`);
}

function manifestScripts(dist: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8'));
  return (manifest.shared as Array<{ name: string; assets: { js: { sync: string[] } } }>)
    .filter((shared) => SHELL_FIRST_SHARED.includes(shared.name))
    .flatMap((shared) => shared.assets.js.sync.map((file) => `/${file}`));
}

/**
 * The shell's stylesheet of @whistle/ui (the frame, cards, buttons): the chunks its share scope loads for it, as
 * webpack's runtime in main.js names them, so the link in the page is the one mini-css-extract finds and does not
 * load again. Without it the drawn landing page would be laid out twice (unstyled, then styled: a layout shift).
 */
function shellUiStylesheets(dist: string): string[] {
  const main = readFileSync(path.join(dist, 'main.js'), 'utf8');
  const chunks = /"@whistle\/ui","[^"]+",\(\)=>Promise\.all\(\[([^\]]*)\]\)/.exec(main)?.[1] ?? '';
  // `e=>e+"."+{…}[e]+".css"`, or with the named chunks' names first: `e=>(991===e?"public-pages":e)+"."+…`.
  const cssNames = /miniCssF=e=>\(?[^+]*\+"\."\+(\{[^}]*\})\[e\]\+"\.css"/.exec(main)?.[1] ?? '{}';
  const hashes = JSON.parse(cssNames.replace(/(\d+):/g, '"$1":')) as Record<string, string>;
  return [...chunks.matchAll(/o\.e\((\d+)\)/g)]
    .map(([, id]) => id)
    .filter((id) => hashes[id])
    .map((id) => `/${id}.${hashes[id]}.css`);
}

/**
 * A drawn page's first stylesheets, inlined: linked, each was one more round trip before the first paint (they block
 * rendering), on a phone's slow network the largest wait after the HTML. Each `<style>` carries its file's address
 * as `data-href`, which is how mini-css-extract's runtime finds a stylesheet already on the page, so the chunk that
 * needs it later does not load it again; the federation runtime, which loads a remote module's stylesheets itself,
 * looks for a `<link rel="stylesheet">` of the same address, so one is there too, `disabled`: browsers neither fetch
 * nor apply it. The page's CSP allows exactly these styles by hash (`hashes`). A stylesheet with a
 * `url(` stays linked: inlined, a relative address in it would resolve against the page instead of the file.
 */
function inlineStylesheets(shellDist: string, discloseDist: string, remoteBase: string) {
  const hashes = new Set<string>();
  const fileOf = (href: string) =>
    href.startsWith(remoteBase)
      ? path.join(discloseDist, href.slice(remoteBase.length))
      : path.join(shellDist, href.slice(1));
  // Every language's page holds the same few stylesheets: each is read and hashed once.
  const elements = new Map<string, string>();
  const inline = (href: string) => {
    const css = readFileSync(fileOf(href), 'utf8');
    if (/url\(/i.test(css) || /<\/style/i.test(css)) return `<link rel="stylesheet" href="${href}">`;
    hashes.add(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    return `<link rel="stylesheet" href="${href}" disabled><style data-href="${href}">${css}</style>`;
  };
  const element = (href: string) => {
    if (!elements.has(href)) elements.set(href, inline(href));
    return elements.get(href)!;
  };
  return { element, hashes };
}

/**
 * Reads the built shell's index.html and the discloser remote's manifest and translations once, at start (a rebuilt
 * frontend needs a restart, as for the static files).
 *
 * A company's page is announced and drawn in the language it will open in (`languageFor`: the company's offered
 * languages, the browser's Accept-Language, the company's default), with `<html lang dir>`, that language's
 * translations hinted and no other's (issue #29 item 5). The browser's stored choice (`i18n-language`) is not sent:
 * a discloser who chose another language before sees the remote redraw the page in theirs. The landing markup is the
 * one mfe-disclose renders (same elements and classes), so the remote's first render takes its place without moving
 * anything.
 */
export function pageTemplate(shellDist: string, discloseDist: string): PageTemplate {
  const plain = readFileSync(path.join(shellDist, 'index.html'), 'utf8');
  const remote = firstFiles(discloseDist);
  const shellGroups = readChunkGroups(shellDist);
  const remoteGroups = readChunkGroups(discloseDist);
  const locale = (language: string, namespace: string) => `/locales/${language}/${namespace}.json`;
  // fetch() requests (CORS mode, same-origin credentials) are matched by `as="fetch" crossorigin`; the remote's
  // files are added as classic scripts and stylesheets, matched without it.
  const fetchHint = (href: string) => `<link rel="preload" href="${href}" as="fetch" crossorigin>`;
  // main.js loads the bootstrap chunk once it has run: hinted, it arrives with main.js instead of a round trip after.
  const shellScripts = [
    ...[...shellGroups.groups.bootstrap.js.map((file) => `/${file}`), ...shellFirstScripts(shellDist)].map(
      (href) => `<link rel="preload" href="${href}" as="script">`,
    ),
    fetchHint('/remotes.json'),
  ];
  // Staff pages open in English unless a choice was stored (which the server does not see).
  const shellHints = [
    ...shellScripts,
    fetchHint(locale(DEFAULT_LANGUAGE, 'common')),
    fetchHint(locale(DEFAULT_LANGUAGE, 'shell')),
  ];
  const html = /<html lang="?en"?>/;
  if (!html.test(plain)) throw new Error('index.html has no <html lang=en>');
  const shellStyles = shellUiStylesheets(shellDist);
  const inlined = inlineStylesheets(shellDist, discloseDist, remote.base);
  /**
   * The page in `language`, with `stylesheets` inlined before the shell's script and every preload (a drawn page's
   * first paint waits for them only) and `hints` after them.
   */
  const pageIn = (language: DiscloserLanguage, stylesheets: readonly string[], hints: readonly string[]) =>
    plain
      .replace(html, `<html lang="${language}" dir="${languageDirection(language)}">`)
      .replace('<script', () => `${stylesheets.map(inlined.element).join('')}<script`)
      .replace('</head>', `${hints.join('')}</head>`);
  // A discloser page needs the common and disclose namespaces only (@whistle/ui's DISCLOSER_NAMESPACES: the shell's
  // own is not loaded there).
  const discloserIn = (language: DiscloserLanguage) =>
    pageIn(
      language,
      [...shellStyles, ...remote.styles],
      [
        ...shellScripts,
        fetchHint(locale(language, 'common')),
        fetchHint(remote.manifest),
        `<link rel="preload" href="${remote.entry}" as="script">`,
        ...remote.scripts.map((href) => `<link rel="preload" href="${href}" as="script">`),
        fetchHint(locale(language, 'disclose')),
      ],
    );
  const pages = new Map(DISCLOSER_LANGUAGE_CODES.map((language) => [language, discloserIn(language)]));
  // The create page is routed: React Router's chunk and the page's own, found otherwise only once the remote runs.
  const createHints = groupHints(shellGroups, remoteGroups, remote.base, ['routed-app', 'create-page']).join('');
  const strings = new Map(
    DISCLOSER_LANGUAGE_CODES.map((language) => [
      language,
      readJson(path.join(discloseDist, 'locales', language, 'disclose.json')),
    ]),
  );
  const languageLabels = new Map(
    DISCLOSER_LANGUAGE_CODES.map((language) => [
      language,
      readJson(path.join(shellDist, 'locales', language, 'common.json')).language.label,
    ]),
  );
  const frameIn = (language: DiscloserLanguage): FrameParts => ({
    defaultLogo: remote.defaultLogo,
    language,
    languageLabel: languageLabels.get(language)!,
  });
  const staff = plain.replace('</head>', `${shellHints.join('')}</head>`);
  // The login page's first render needs the shell's public pages and their stylesheets (inlined, so it lays out once).
  const publicPages = groupFiles(shellGroups, shellGroups, '/', ['public-pages']);
  const staffStrings = new Map(
    STAFF_LANGUAGE_CODES.map((language) => [
      language,
      readJson(path.join(shellDist, 'locales', language, 'shell.json')) as unknown as LoginStrings,
    ]),
  );
  const loginIn = (language: StaffLanguageCode) =>
    titled(
      pageIn(
        language,
        [...shellStyles, ...publicPages.css],
        [
          ...shellScripts,
          fetchHint(locale(language, 'common')),
          fetchHint(locale(language, 'shell')),
          ...publicPages.js.map((href) => `<link rel="preload" href="${href}" as="script">`),
        ],
      ),
      staffStrings.get(language)!.login.title,
    );
  const loginPages = new Map(STAFF_LANGUAGE_CODES.map((language) => [language, loginIn(language)]));
  const shellContainer = /<div id="?single-spa-application:shell"?><\/div>/;
  if (!shellContainer.test(staff)) throw new Error('index.html has no container for the shell');
  const discloser = pages.get(DEFAULT_LANGUAGE)!;
  const container = /<div id="?single-spa-application:mfe_disclose"?><\/div>/;
  if (!container.test(discloser)) throw new Error('index.html has no container for mfe_disclose');

  const viewBlock = (company: CompanyPublicView) =>
    `<script type="application/json" id="${EMBEDDED_COMPANY_VIEW_ID}">${jsonBlock(company)}</script>`;
  const languageOf = (company: CompanyPublicView, preferred: readonly string[]) =>
    languageFor(company.languages, null, preferred);
  return {
    staff,
    discloser,
    styleHashes: [...inlined.hashes],
    // Replacer functions, not strings: a company's text may hold `$&` or `$'`, which a replacement string expands.
    create(company, preferred) {
      const language = languageOf(company, preferred);
      const html = pages.get(language)!.replace('</head>', () => `${createHints}</head>`);
      const drawn = createMarkup(company, strings.get(language)!, frameIn(language));
      return html.replace(
        container,
        () => `<div id="single-spa-application:mfe_disclose">${drawn}</div>${viewBlock(company)}`,
      );
    },
    login(preferred, next) {
      const language = languageFor(STAFF_PAGE_LANGUAGES, null, preferred) as StaffLanguageCode;
      const markup = loginMarkup(
        staffStrings.get(language)!,
        { language, languageLabel: languageLabels.get(language)! },
        next,
      );
      return loginPages
        .get(language)!
        .replace(shellContainer, () => `<div id="single-spa-application:shell">${markup}</div>`);
    },
    landing(company, preferred) {
      const language = languageOf(company, preferred);
      const text = strings.get(language)!;
      const own = landingText(company.customization, language);
      const shown = { ...company, customization: { ...company.customization, ...own } };
      const markup = landingMarkup(shown, text, frameIn(language));
      return titled(pages.get(language)!, own.title || text.landing.defaultTitle).replace(
        container,
        () => `<div id="single-spa-application:mfe_disclose">${markup}</div>${viewBlock(company)}`,
      );
    },
  };
}

/** The landing page as mfe-disclose's DiscloserFrame and LandingPage draw it, before its JavaScript is there. */
export function landingMarkup(company: CompanyPublicView, strings: Strings, frame: FrameParts): string {
  const { customization } = company;
  const base = `/disclose/${encodeURIComponent(company.url_identifier)}`;
  const title = customization.title || strings.landing.defaultTitle;
  // The description was sanitised when it was stored (rich-text allow-list, @whistle/contracts), as the remote
  // relies on when it sets it as HTML; no script in it could run anyway under the page's CSP.
  const description = customization.description
    ? `<div class="disclose-landing__description disclose-landing__description--rich">${customization.description}</div>`
    : `<p class="disclose-landing__description">${fill(strings.landing.defaultDescription)}</p>`;
  return frameMarkup(
    company,
    strings,
    frame,
    `<article class="wh-card disclose-landing"><h1>${escapeHtml(title)}</h1>${description}` +
      `<section class="disclose-landing__assurances" aria-labelledby="assurances-title">` +
      `<h2 id="assurances-title">${fill(strings.landing.assurancesTitle)}</h2>` +
      `<ul><li>${fill(strings.landing.encrypted)}</li><li>${fill(strings.landing.anonymous)}</li></ul></section>` +
      `<section class="disclose-next" aria-labelledby="next-title"><h2 id="next-title">${fill(strings.next.title)}</h2>` +
      `<ol><li>${fill(strings.next.acknowledgement)}</li><li>${fill(strings.next.feedback)}</li>` +
      `<li>${fill(strings.next.statusPage)}</li></ol></section>` +
      // The report link works before the JavaScript is there; the status button opens its form only once it is, so
      // until then it says it is unavailable (aria-disabled, drawn faded) rather than swallow a tap.
      `<div class="wh-actions"><a class="wh-button wh-button--primary" href="${base}/create">${fill(strings.landing.report)}</a>` +
      `<button type="button" class="wh-button wh-button--secondary" aria-disabled="true">${fill(strings.landing.checkStatus)}</button></div>` +
      `</article>`,
  );
}

/** The create page's texts the first view needs (mfe-disclose's `create` keys). */
interface CreateStrings {
  readonly title: string;
  readonly intro: string;
  readonly anonymity: Readonly<
    Record<
      'legend' | 'anonymous' | 'named' | 'protects' | 'limitsTitle' | 'limitText' | 'limitFiles' | 'limitDevice',
      string
    >
  >;
}

/**
 * The create page's first view as mfe-disclose's CreatePage draws it: heading, introduction and the anonymity
 * choice with what it protects (the page's largest text, its LCP element on a phone). The choice is drawn disabled:
 * a tap before the form is there would be undone by it. The rest of the form appears below it, moving nothing.
 */
export function createMarkup(company: CompanyPublicView, strings: Strings, frame: FrameParts): string {
  const create = strings.create as unknown as CreateStrings;
  const { anonymity } = create;
  const option = (value: string, label: string, checked: boolean) =>
    `<label><input type="radio" name="report_anonymously" value="${value}"${checked ? ' checked' : ''} disabled> ` +
    `${fill(label)}</label>`;
  return frameMarkup(
    company,
    strings,
    frame,
    `<article class="wh-card disclose-create"><h1>${fill(create.title)}</h1><p>${fill(create.intro)}</p>` +
      `<form novalidate><fieldset class="wh-choice" aria-describedby="drawn-anonymity">` +
      `<legend class="wh-field__label">${fill(anonymity.legend)}</legend>` +
      option('true', anonymity.anonymous, true) +
      option('false', anonymity.named, false) +
      `<div class="wh-choice__description" id="drawn-anonymity"><p>${fill(anonymity.protects)}</p>` +
      `<p>${fill(anonymity.limitsTitle)}</p><ul><li>${fill(anonymity.limitText)}</li>` +
      `<li>${fill(anonymity.limitFiles)}</li><li>${fill(anonymity.limitDevice)}</li></ul></div></fieldset></form>` +
      `</article>`,
  );
}

/** The language a drawn page is in, selected in its language chooser. */
export interface ChooserParts {
  readonly language: DiscloserLanguage;
  /** The chooser's label in that language (shell's `common` namespace). */
  readonly languageLabel: string;
}

/** What the frame of a drawn discloser page needs besides the company and the page's texts. */
export interface FrameParts extends ChooserParts {
  readonly defaultLogo: string;
}

/** @whistle/ui's AppFrame: the header with its brand and tools, then the page in the main column. */
function appFrameMarkup(brand: string, tools: string, page: string): string {
  return (
    `<div class="wh-frame"><header class="wh-header"><div class="wh-header__brand">${brand}</div>` +
    `<div class="wh-header__tools">${tools}</div></header><main class="wh-main">${page}</main></div>`
  );
}

/**
 * @whistle/ui's LanguageChooser, drawn disabled until the page's JavaScript is there: without it, the header would
 * grow when it came and move the whole page.
 */
function languageChooserMarkup(languages: readonly DiscloserLanguage[], chooser: ChooserParts): string {
  const options = languages
    .map(
      (language) =>
        `<option value="${language}" lang="${language}"${language === chooser.language ? ' selected' : ''}>` +
        `${LANGUAGE_NAMES[language]}</option>`,
    )
    .join('');
  return (
    `<div class="wh-language"><label class="wh-visually-hidden" for="drawn-language">` +
    `${fill(chooser.languageLabel)}</label><select id="drawn-language" class="wh-input wh-language__select" disabled>` +
    `${options}</select></div>`
  );
}

/** mfe-disclose's DiscloserFrame around a page: the company's logo or name and its languages, then the page. */
function frameMarkup(company: CompanyPublicView, strings: Strings, frame: FrameParts, page: string): string {
  const { customization } = company;
  const logo = customization.logo_url
    ? `<img class="disclose-logo" src="${escapeHtml(customization.logo_url)}" alt="${fill(strings.header.logoAlt, { name: company.name })}" fetchpriority="high">`
    : `<span class="disclose-brand"><img src="${frame.defaultLogo}" fetchpriority="high" alt="${fill(strings.header.defaultLogoAlt)}" width="132" height="32">` +
      `<span class="disclose-company-name">${escapeHtml(company.name)}</span></span>`;
  return appFrameMarkup(logo, languageChooserMarkup(company.languages.offered, frame), page);
}

/** The shell's texts the login page needs (its `shell` namespace). */
export interface LoginStrings {
  readonly brand: string;
  readonly login: Readonly<Record<'title' | 'email' | 'password' | 'submit' | 'forgotPassword' | 'sso', string>>;
}

/**
 * The staff login page as the shell's ShellFrame and LoginPage draw it. The fields and the button are drawn disabled:
 * what was typed before the page's JavaScript is there would be lost when React takes the form over. The links work.
 */
export function loginMarkup(strings: LoginStrings, chooser: ChooserParts, next: string | null): string {
  const { login } = strings;
  // The SSO page makes `next` safe itself (the login page's `safeNextPath`), as the link React draws leaves it to.
  const sso = `/company/login/sso${next === null ? '' : `?next=${encodeURIComponent(next)}`}`;
  const field = (name: string, type: string, label: string, autocomplete: string) =>
    `<div class="wh-field"><label class="wh-field__label" for="drawn-${name}">${fill(label)}</label>` +
    `<input name="${name}" type="${type}" autocomplete="${autocomplete}" required disabled id="drawn-${name}" class="wh-input"></div>`;
  return appFrameMarkup(
    `<span>${fill(strings.brand)}</span>`,
    languageChooserMarkup(STAFF_LANGUAGE_CODES, chooser),
    `<section class="wh-card" aria-labelledby="login-title"><h1 id="login-title">${fill(login.title)}</h1>` +
      `<form novalidate>${field('email', 'email', login.email, 'username')}` +
      field('password', 'password', login.password, 'current-password') +
      `<div class="wh-actions"><button type="submit" class="wh-button wh-button--primary" disabled>${fill(login.submit)}</button></div></form>` +
      `<ul class="shell-login-links"><li><a href="/company/password/reset">${fill(login.forgotPassword)}</a></li>` +
      `<li><a href="${escapeHtml(sso)}">${fill(login.sso)}</a></li></ul></section>`,
  );
}
