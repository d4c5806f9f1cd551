import { staffLanguageOrEnglish, type StaffLanguage } from '@whistle/contracts';

/**
 * The invitation (in the invitee's language, chosen by the admin) and the company confirmation (in the language of
 * the page the company signed up on) in the staff pages' languages, with docs/i18n.md's staff glossaries and forms
 * of address. The durations are fixed words, no count: no plural form depends on a number.
 */
interface InvitationMailTexts {
  invitation: { subject: string; text: (fullName: string, link: string) => string };
  companyConfirmation: { subject: string; text: (companyName: string, link: string) => string };
}

export const INVITATION_MAIL_TEXTS: Record<StaffLanguage, InvitationMailTexts> = {
  en: {
    invitation: {
      subject: 'You have been invited to Whistle',
      text: (fullName, link) =>
        `Hello ${fullName},\n\nyou have been invited to your company's Whistle account. Choose your password here (the link works once, for 7 days):\n\n${link}\n\nIf you did not expect this, ignore this e-mail.\n`,
    },
    companyConfirmation: {
      subject: 'Confirm your company’s Whistle account',
      text: (companyName, link) =>
        `Hello,\n\nsomeone asked to open a Whistle whistleblowing account for "${companyName}" with this e-mail address, as its first administrator. Confirm that it was you here (the link works once, for 24 hours):\n\n${link}\n\nUntil it is confirmed, the account does not exist: its disclosure link and its sign-in do not work.\n\nIf it was not you, ignore this e-mail: nothing is created, and the request is deleted after 24 hours.\n`,
    },
  },
  fr: {
    invitation: {
      subject: 'Invitation à rejoindre Whistle',
      text: (fullName, link) =>
        `Bonjour ${fullName},\n\nvotre entreprise vous invite à rejoindre son compte Whistle. Choisissez votre mot de passe ici (le lien fonctionne une fois, pendant 7 jours) :\n\n${link}\n\nSi vous ne vous attendiez pas à cette invitation, ignorez cet e-mail.\n`,
    },
    companyConfirmation: {
      subject: 'Confirmez le compte Whistle de votre entreprise',
      text: (companyName, link) =>
        `Bonjour,\n\nquelqu'un a demandé l'ouverture d'un compte d'alerte Whistle pour « ${companyName} » avec cette adresse e-mail, en tant que premier administrateur. Confirmez ici que c'était bien vous (le lien fonctionne une fois, pendant 24 heures) :\n\n${link}\n\nTant qu'il n'est pas confirmé, le compte n'existe pas : son lien de signalement et sa connexion ne fonctionnent pas.\n\nSi ce n'était pas vous, ignorez cet e-mail : rien n'est créé, et la demande est supprimée au bout de 24 heures.\n`,
    },
  },
  de: {
    invitation: {
      subject: 'Einladung zu Whistle',
      text: (fullName, link) =>
        `Hallo ${fullName},\n\nSie wurden zum Whistle-Konto Ihres Unternehmens eingeladen. Wählen Sie hier Ihr Passwort (der Link funktioniert einmal, 7 Tage lang):\n\n${link}\n\nWenn Sie diese Einladung nicht erwartet haben, ignorieren Sie diese E-Mail.\n`,
    },
    companyConfirmation: {
      subject: 'Bestätigen Sie das Whistle-Konto Ihres Unternehmens',
      text: (companyName, link) =>
        `Hallo,\n\njemand hat beantragt, für „${companyName}“ ein Whistle-Konto für Meldungen zu eröffnen, mit dieser E-Mail-Adresse als erstem Admin. Bestätigen Sie hier, dass Sie das waren (der Link funktioniert einmal, 24 Stunden lang):\n\n${link}\n\nBis zur Bestätigung existiert das Konto nicht: Sein Link für Meldungen und seine Anmeldung funktionieren nicht.\n\nWenn Sie das nicht waren, ignorieren Sie diese E-Mail: Es wird nichts angelegt, und die Anfrage wird nach 24 Stunden gelöscht.\n`,
    },
  },
  es: {
    invitation: {
      subject: 'Invitación a Whistle',
      text: (fullName, link) =>
        `Hola, ${fullName}:\n\nsu empresa le invita a su cuenta de Whistle. Elija su contraseña aquí (el enlace funciona una vez, durante 7 días):\n\n${link}\n\nSi no esperaba esta invitación, ignore este correo electrónico.\n`,
    },
    companyConfirmation: {
      subject: 'Confirme la cuenta de Whistle de su empresa',
      text: (companyName, link) =>
        `Hola:\n\nalguien ha solicitado abrir una cuenta de Whistle para comunicaciones de informantes de «${companyName}» con esta dirección de correo electrónico, como su primer administrador. Confirme aquí que ha sido usted (el enlace funciona una vez, durante 24 horas):\n\n${link}\n\nHasta que se confirme, la cuenta no existe: su enlace para comunicar y su inicio de sesión no funcionan.\n\nSi no ha sido usted, ignore este correo electrónico: no se crea nada y la solicitud se elimina al cabo de 24 horas.\n`,
    },
  },
  it: {
    invitation: {
      subject: 'Invito a Whistle',
      text: (fullName, link) =>
        `Buongiorno ${fullName},\n\nla Sua azienda La invita nel proprio account Whistle. Scelga qui la Sua password (il link funziona una volta, per 7 giorni):\n\n${link}\n\nSe non si aspettava questo invito, ignori questa e-mail.\n`,
    },
    companyConfirmation: {
      subject: "Confermi l'account Whistle della Sua azienda",
      text: (companyName, link) =>
        `Buongiorno,\n\nqualcuno ha chiesto di aprire un account Whistle per le segnalazioni di «${companyName}» con questo indirizzo e-mail, come primo amministratore. Confermi qui di essere stato Lei (il link funziona una volta, per 24 ore):\n\n${link}\n\nFinché non è confermato, l'account non esiste: il suo link per le segnalazioni e il suo accesso non funzionano.\n\nSe non è stato Lei, ignori questa e-mail: non viene creato nulla e la richiesta viene eliminata dopo 24 ore.\n`,
    },
  },
  nl: {
    invitation: {
      subject: 'Uitnodiging voor Whistle',
      text: (fullName, link) =>
        `Beste ${fullName},\n\nu bent uitgenodigd voor het Whistle-account van uw organisatie. Kies hier uw wachtwoord (de link werkt één keer, 7 dagen lang):\n\n${link}\n\nVerwachtte u deze uitnodiging niet, negeer deze e-mail dan.\n`,
    },
    companyConfirmation: {
      subject: 'Bevestig het Whistle-account van uw organisatie',
      text: (companyName, link) =>
        `Goedendag,\n\niemand heeft gevraagd met dit e-mailadres een Whistle-account voor meldingen te openen voor ‘${companyName}’, als eerste beheerder. Bevestig hier dat u dit was (de link werkt één keer, 24 uur lang):\n\n${link}\n\nZolang het niet is bevestigd, bestaat het account niet: de link om te melden en het aanmelden werken niet.\n\nWas u dit niet, negeer deze e-mail dan: er wordt niets aangemaakt en het verzoek wordt na 24 uur verwijderd.\n`,
    },
  },
  pl: {
    invitation: {
      subject: 'Zaproszenie do Whistle',
      text: (fullName, link) =>
        `Dzień dobry,\n\nfirma zaprasza do swojego konta w Whistle (zaproszenie dla: ${fullName}). Hasło można ustawić tutaj (link działa jeden raz, przez 7 dni):\n\n${link}\n\nJeśli to zaproszenie nie było oczekiwane, należy zignorować tę wiadomość.\n`,
    },
    companyConfirmation: {
      subject: 'Potwierdzenie konta firmy w Whistle',
      text: (companyName, link) =>
        `Dzień dobry,\n\nktoś poprosił o założenie konta Whistle do przyjmowania zgłoszeń dla firmy „${companyName}” z tym adresem e-mail jako pierwszym administratorem. Należy potwierdzić tutaj, że była to prośba z tego adresu (link działa jeden raz, przez 24 godziny):\n\n${link}\n\nDo czasu potwierdzenia konto nie istnieje: jego link do zgłoszeń i logowanie nie działają.\n\nJeśli to nie była prośba z tego adresu, należy zignorować tę wiadomość: nic nie zostanie utworzone, a prośba zostanie usunięta po 24 godzinach.\n`,
    },
  },
  pt: {
    invitation: {
      subject: 'Convite para o Whistle',
      text: (fullName, link) =>
        `Olá, ${fullName},\n\nrecebeu um convite para a conta Whistle da sua empresa. Escolha a sua palavra-passe aqui (a ligação funciona uma vez, durante 7 dias):\n\n${link}\n\nSe não esperava este convite, ignore este e-mail.\n`,
    },
    companyConfirmation: {
      subject: 'Confirme a conta Whistle da sua empresa',
      text: (companyName, link) =>
        `Olá,\n\nalguém pediu para abrir uma conta Whistle de denúncias para «${companyName}» com este endereço de e-mail, como o seu primeiro administrador. Confirme aqui que foi o próprio (a ligação funciona uma vez, durante 24 horas):\n\n${link}\n\nEnquanto não for confirmada, a conta não existe: a sua ligação de denúncia e o seu início de sessão não funcionam.\n\nSe não foi o próprio, ignore este e-mail: nada é criado e o pedido é eliminado ao fim de 24 horas.\n`,
    },
  },
};

/** The texts in `language`, English for a language the mails are not written in. */
export const invitationMailTexts = (language: string | undefined): InvitationMailTexts =>
  INVITATION_MAIL_TEXTS[staffLanguageOrEnglish(language)];
