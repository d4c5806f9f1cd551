import type { StaffLanguage } from '@whistle/contracts';

/** The welcome mail's lines in the staff pages' languages (docs/i18n.md's staff glossaries and forms of address). */
interface WelcomeMailTexts {
  subject: (companyName: string) => string;
  hello: string;
  ready: (companyName: string) => string;
  /** Before the employees' link. */
  share: string;
  /** Before the sign-in link. */
  signIn: string;
}

export const WELCOME_MAIL_TEXTS: Record<StaffLanguage, WelcomeMailTexts> = {
  en: {
    subject: (name) => `Your Whistle account for ${name} is ready`,
    hello: 'Hello,',
    ready: (name) => `The whistleblowing channel of ${name} is ready.`,
    share: 'Share this link with your employees so they can report safely, anonymously if they wish:',
    signIn: 'Sign in to manage reports:',
  },
  fr: {
    subject: (name) => `Votre compte Whistle pour ${name} est prêt`,
    hello: 'Bonjour,',
    ready: (name) => `Le canal d'alerte de ${name} est prêt.`,
    share:
      "Partagez ce lien avec vos collaborateurs pour qu'ils puissent effectuer un signalement en toute sécurité, de manière anonyme s'ils le souhaitent :",
    signIn: 'Connectez-vous pour gérer les signalements :',
  },
  de: {
    subject: (name) => `Ihr Whistle-Konto für ${name} ist bereit`,
    hello: 'Hallo,',
    ready: (name) => `Der Meldekanal von ${name} ist bereit.`,
    share:
      'Teilen Sie diesen Link mit Ihren Beschäftigten, damit sie sicher eine Meldung abgeben können, auf Wunsch anonym:',
    signIn: 'Hier melden Sie sich an, um Meldungen zu bearbeiten:',
  },
  es: {
    subject: (name) => `Su cuenta de Whistle para ${name} está lista`,
    hello: 'Hola:',
    ready: (name) => `El canal interno de información de ${name} está listo.`,
    share:
      'Comparta este enlace con su plantilla para que pueda comunicar infracciones de forma segura, en el anonimato si lo desea:',
    signIn: 'Inicie sesión para gestionar las comunicaciones:',
  },
  it: {
    subject: (name) => `Il Suo account Whistle per ${name} è pronto`,
    hello: 'Buongiorno,',
    ready: (name) => `Il canale di segnalazione di ${name} è pronto.`,
    share:
      'Condivida questo link con il personale, perché possa effettuare una segnalazione in sicurezza, anche in forma anonima:',
    signIn: 'Acceda per gestire le segnalazioni:',
  },
  nl: {
    subject: (name) => `Uw Whistle-account voor ${name} is klaar`,
    hello: 'Goedendag,',
    ready: (name) => `Het meldkanaal van ${name} is klaar.`,
    share: 'Deel deze link met uw medewerkers, zodat zij veilig een melding kunnen doen, desgewenst anoniem:',
    signIn: 'Meld u aan om meldingen te behandelen:',
  },
  pl: {
    subject: (name) => `Konto Whistle firmy ${name} jest gotowe`,
    hello: 'Dzień dobry,',
    ready: (name) => `Kanał zgłoszeń firmy ${name} jest gotowy.`,
    share: 'Ten link należy przekazać pracownikom, aby mogli bezpiecznie dokonywać zgłoszeń, także anonimowo:',
    signIn: 'Logowanie do obsługi zgłoszeń:',
  },
  pt: {
    subject: (name) => `A sua conta Whistle para ${name} está pronta`,
    hello: 'Olá,',
    ready: (name) => `O canal de denúncia de ${name} está pronto.`,
    share:
      'Partilhe esta ligação com os seus trabalhadores, para que possam fazer denúncias em segurança, mantendo o anonimato, se o desejarem:',
    signIn: 'Inicie sessão para gerir as denúncias:',
  },
};
