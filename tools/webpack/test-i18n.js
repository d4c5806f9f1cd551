// Tests render with the real translation files of every frontend (what /locales/{lng}/{ns}.json
// serves), loaded synchronously into a fresh i18next instance bound to react-i18next.
const fs = require('node:fs');
const path = require('node:path');
const i18next = require('i18next');
const { initReactI18next } = require('react-i18next');

const ROOT = path.resolve(__dirname, '../..');
const FRONTENDS = ['shell', 'mfe-disclose', 'mfe-incidents', 'mfe-settings'];

function readResources() {
  const resources = {};
  for (const frontend of FRONTENDS) {
    const localesDir = path.join(ROOT, frontend, 'locales');
    if (!fs.existsSync(localesDir)) continue;
    for (const language of fs.readdirSync(localesDir)) {
      for (const file of fs.readdirSync(path.join(localesDir, language))) {
        resources[language] ??= {};
        resources[language][path.basename(file, '.json')] = JSON.parse(
          fs.readFileSync(path.join(localesDir, language, file), 'utf8'),
        );
      }
    }
  }
  return resources;
}

/** @param {string} [language] @returns {Promise<import('i18next').i18n>} */
async function initTestI18n(language = 'en') {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'en',
    resources: readResources(),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
  });
  return instance;
}

module.exports = { initTestI18n };
