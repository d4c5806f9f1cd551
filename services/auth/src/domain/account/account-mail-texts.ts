import { staffLanguageOrEnglish, type StaffLanguage } from '@whistle/contracts';

/**
 * The password-reset and failed-sign-in mails in the staff pages' languages (the recipient's mail language, as the
 * case mails; docs/i18n.md's staff glossaries and forms of address). A count is written so that no plural form
 * depends on it ("Liczba …: 5"), a link stands on its own line.
 */
interface AccountMailTexts {
  passwordReset: { subject: string; text: (link: string) => string };
  failedSignIns: { subject: string; text: (count: number) => string };
}

export const ACCOUNT_MAIL_TEXTS: Record<StaffLanguage, AccountMailTexts> = {
  en: {
    passwordReset: {
      subject: 'Reset your Whistle password',
      text: (link) =>
        `Someone asked to reset the password of this Whistle account. Choose a new password here (the link works once, for 1 hour):\n\n${link}\n\nIf it was not you, ignore this e-mail: your password stays as it is.\n`,
    },
    failedSignIns: {
      subject: 'Wrong passwords were entered for your Whistle account',
      text: (count) =>
        `${count} wrong passwords in a row were entered for this Whistle account. You can still sign in as usual: only the address they came from is slowed down.\n\nIf this was not you, someone may be guessing your password: choose a strong one (or reset it from the sign-in page), turn on multi-factor authentication in your account settings, and tell your company admin.\n`,
    },
  },
  fr: {
    passwordReset: {
      subject: 'Réinitialisez votre mot de passe Whistle',
      text: (link) =>
        `Quelqu'un a demandé à réinitialiser le mot de passe de ce compte Whistle. Choisissez un nouveau mot de passe ici (le lien fonctionne une fois, pendant 1 heure) :\n\n${link}\n\nSi ce n'était pas vous, ignorez cet e-mail : votre mot de passe reste inchangé.\n`,
    },
    failedSignIns: {
      subject: 'Des mots de passe erronés ont été saisis pour votre compte Whistle',
      text: (count) =>
        `${count} mots de passe erronés d'affilée ont été saisis pour ce compte Whistle. Vous pouvez toujours vous connecter normalement : seule l'adresse d'où ils venaient est ralentie.\n\nSi ce n'était pas vous, quelqu'un essaie peut-être de deviner votre mot de passe : choisissez-en un robuste (ou réinitialisez-le depuis la page de connexion), activez l'authentification multifacteur dans les paramètres de votre compte et prévenez l'administrateur de votre entreprise.\n`,
    },
  },
  de: {
    passwordReset: {
      subject: 'Ihr Whistle-Passwort zurücksetzen',
      text: (link) =>
        `Jemand hat das Zurücksetzen des Passworts dieses Whistle-Kontos angefordert. Wählen Sie hier ein neues Passwort (der Link funktioniert einmal, 1 Stunde lang):\n\n${link}\n\nWenn Sie das nicht waren, ignorieren Sie diese E-Mail: Ihr Passwort bleibt, wie es ist.\n`,
    },
    failedSignIns: {
      subject: 'Für Ihr Whistle-Konto wurden falsche Passwörter eingegeben',
      text: (count) =>
        `Für dieses Whistle-Konto wurden ${count} falsche Passwörter in Folge eingegeben. Sie können sich weiterhin wie gewohnt anmelden: Nur die Adresse, von der sie kamen, wird gebremst.\n\nWenn Sie das nicht waren, versucht vielleicht jemand, Ihr Passwort zu erraten: Wählen Sie ein starkes Passwort (oder setzen Sie es auf der Anmeldeseite zurück), aktivieren Sie die Multi-Faktor-Authentifizierung in Ihren Kontoeinstellungen und informieren Sie den Admin Ihres Unternehmens.\n`,
    },
  },
  es: {
    passwordReset: {
      subject: 'Restablezca su contraseña de Whistle',
      text: (link) =>
        `Alguien ha solicitado restablecer la contraseña de esta cuenta de Whistle. Elija una contraseña nueva aquí (el enlace funciona una vez, durante 1 hora):\n\n${link}\n\nSi no ha sido usted, ignore este correo electrónico: su contraseña no cambia.\n`,
    },
    failedSignIns: {
      subject: 'Se han introducido contraseñas incorrectas en su cuenta de Whistle',
      text: (count) =>
        `Se han introducido ${count} contraseñas incorrectas seguidas en esta cuenta de Whistle. Puede seguir iniciando sesión con normalidad: solo se ralentiza la dirección de la que procedían.\n\nSi no ha sido usted, es posible que alguien esté intentando adivinar su contraseña: elija una segura (o restablézcala desde la página de inicio de sesión), active la autenticación multifactor en la configuración de su cuenta e informe al administrador de su empresa.\n`,
    },
  },
  it: {
    passwordReset: {
      subject: 'Reimposti la password di Whistle',
      text: (link) =>
        `Qualcuno ha chiesto di reimpostare la password di questo account Whistle. Scelga qui una nuova password (il link funziona una volta, per 1 ora):\n\n${link}\n\nSe non è stato Lei, ignori questa e-mail: la Sua password resta invariata.\n`,
    },
    failedSignIns: {
      subject: 'Sono state inserite password errate per il Suo account Whistle',
      text: (count) =>
        `Per questo account Whistle sono state inserite ${count} password errate di seguito. Può comunque accedere come sempre: viene rallentato solo l'indirizzo da cui provenivano.\n\nSe non è stato Lei, qualcuno potrebbe tentare di indovinare la Sua password: ne scelga una robusta (o la reimposti dalla pagina di accesso), attivi l'autenticazione a più fattori nelle impostazioni del Suo account e avvisi l'amministratore della Sua azienda.\n`,
    },
  },
  nl: {
    passwordReset: {
      subject: 'Uw Whistle-wachtwoord opnieuw instellen',
      text: (link) =>
        `Iemand heeft gevraagd het wachtwoord van dit Whistle-account opnieuw in te stellen. Kies hier een nieuw wachtwoord (de link werkt één keer, 1 uur lang):\n\n${link}\n\nWas u dit niet, negeer deze e-mail dan: uw wachtwoord blijft zoals het is.\n`,
    },
    failedSignIns: {
      subject: 'Er zijn onjuiste wachtwoorden ingevoerd voor uw Whistle-account',
      text: (count) =>
        `Voor dit Whistle-account zijn ${count} keer achter elkaar onjuiste wachtwoorden ingevoerd. U kunt zich gewoon blijven aanmelden: alleen het adres waar ze vandaan kwamen, wordt vertraagd.\n\nWas u dit niet, dan probeert iemand misschien uw wachtwoord te raden: kies een sterk wachtwoord (of stel het opnieuw in via de aanmeldpagina), schakel meervoudige authenticatie in bij uw accountinstellingen en licht de beheerder van uw organisatie in.\n`,
    },
  },
  pl: {
    passwordReset: {
      subject: 'Resetowanie hasła do Whistle',
      text: (link) =>
        `Ktoś poprosił o zresetowanie hasła do tego konta Whistle. Nowe hasło można wybrać tutaj (link działa jeden raz, przez 1 godzinę):\n\n${link}\n\nJeśli to nie była prośba z tego konta, należy zignorować tę wiadomość: hasło pozostaje bez zmian.\n`,
    },
    failedSignIns: {
      subject: 'Do konta Whistle wpisano błędne hasła',
      text: (count) =>
        `Liczba błędnych haseł wpisanych z rzędu do tego konta Whistle: ${count}. Nadal można logować się jak zwykle: spowolniony jest tylko adres, z którego pochodziły.\n\nJeśli to nie była osoba korzystająca z tego konta, ktoś może próbować odgadnąć hasło: należy wybrać silne hasło (lub zresetować je na stronie logowania), włączyć uwierzytelnianie wieloskładnikowe w ustawieniach konta i powiadomić administratora firmy.\n`,
    },
  },
  pt: {
    passwordReset: {
      subject: 'Reponha a sua palavra-passe do Whistle',
      text: (link) =>
        `Alguém pediu para repor a palavra-passe desta conta Whistle. Escolha uma nova palavra-passe aqui (a ligação funciona uma vez, durante 1 hora):\n\n${link}\n\nSe não foi o próprio, ignore este e-mail: a sua palavra-passe mantém-se.\n`,
    },
    failedSignIns: {
      subject: 'Foram introduzidas palavras-passe erradas na sua conta Whistle',
      text: (count) =>
        `Foram introduzidas ${count} palavras-passe erradas seguidas nesta conta Whistle. Pode continuar a iniciar sessão normalmente: só o endereço de onde vieram é abrandado.\n\nSe não foi o próprio, alguém pode estar a tentar adivinhar a sua palavra-passe: escolha uma palavra-passe forte (ou reponha-a na página de início de sessão), ative a autenticação multifator nas definições da sua conta e avise o administrador da sua empresa.\n`,
    },
  },
};

/** The texts in `language`, English for a language the mails are not written in. */
export const accountMailTexts = (language: string | undefined): AccountMailTexts =>
  ACCOUNT_MAIL_TEXTS[staffLanguageOrEnglish(language)];
