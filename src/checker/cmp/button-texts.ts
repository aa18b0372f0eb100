// The words of "accept all" and "reject all" on consent banners, per language: used for the `tcf` platform
// (an IAB TCF API with no known banner), for custom banners, and as the fallback when a known platform's
// markup changed. Compared against a control's whole label (lower case, whitespace collapsed, trailing
// punctuation dropped), never as a substring: "Accept" in "Accept terms and pay" is not a consent choice.
// Earlier entries win, so "accept all" beats a bare "accept" on a banner that has both.
// Sources: the vendors' default translations (OneTrust, Cookiebot, Didomi, Usercentrics language packs as
// rendered on their demo pages) and the EDPB cookie-banner taskforce report's examples
// (https://www.edpb.europa.eu/system/files/2023-01/edpb_20230118_report_cookie_banner_taskforce_en.pdf).

export const ACCEPT_TEXTS: Readonly<Record<string, readonly string[]>> = {
  en: [
    'accept all',
    'accept all cookies',
    'allow all',
    'allow all cookies',
    'agree to all',
    'accept and close',
    'accept cookies',
    'i accept',
    'accept',
    'i agree',
    'agree',
    'allow cookies',
    'got it',
    'ok',
  ],
  de: [
    'alle akzeptieren',
    'alles akzeptieren',
    'alle cookies akzeptieren',
    'alle zulassen',
    'alle erlauben',
    'allen zustimmen',
    'akzeptieren und schließen',
    'akzeptieren',
    'zustimmen',
    'einverstanden',
    'ich stimme zu',
  ],
  fr: [
    'tout accepter',
    'accepter tout',
    'accepter tous les cookies',
    'tout autoriser',
    'autoriser tous les cookies',
    'accepter et fermer',
    'accepter',
    "j'accepte",
    'j’accepte',
    "d'accord",
  ],
  es: [
    'aceptar todo',
    'aceptar todas',
    'aceptar todas las cookies',
    'permitir todas',
    'aceptar y cerrar',
    'aceptar',
    'acepto',
    'de acuerdo',
  ],
  it: [
    'accetta tutto',
    'accetta tutti',
    'accetta tutti i cookie',
    'consenti tutti',
    'accetta e chiudi',
    'accetta',
    'accetto',
    'acconsento',
  ],
  nl: [
    'alles accepteren',
    'alle accepteren',
    'alle cookies accepteren',
    'alle cookies toestaan',
    'alles toestaan',
    'accepteren',
    'akkoord',
    'ik ga akkoord',
    'toestaan',
  ],
  pt: ['aceitar tudo', 'aceitar todos', 'aceitar todos os cookies', 'permitir todos', 'aceitar e fechar', 'aceitar', 'aceito', 'concordo'],
  pl: [
    'akceptuj wszystkie',
    'zaakceptuj wszystkie',
    'zaakceptuj wszystko',
    'zgadzam się na wszystkie',
    'akceptuję',
    'zaakceptuj',
    'akceptuj',
    'zgadzam się',
  ],
  sv: ['acceptera alla', 'godkänn alla', 'tillåt alla', 'acceptera alla cookies', 'acceptera', 'godkänn', 'jag godkänner'],
  da: ['accepter alle', 'acceptér alle', 'tillad alle', 'accepter alle cookies', 'accepter', 'acceptér', 'jeg accepterer'],
  nb: ['godta alle', 'aksepter alle', 'tillat alle', 'godta', 'aksepter', 'jeg godtar'],
  fi: ['hyväksy kaikki', 'salli kaikki', 'hyväksy'],
  cs: ['přijmout vše', 'povolit vše', 'přijmout', 'souhlasím'],
};

export const REJECT_TEXTS: Readonly<Record<string, readonly string[]>> = {
  en: [
    'reject all',
    'reject all cookies',
    'decline all',
    'deny all',
    'refuse all',
    'necessary only',
    'only necessary',
    'necessary cookies only',
    'only necessary cookies',
    'use necessary cookies only',
    'reject non-essential',
    'reject optional cookies',
    'continue without accepting',
    'reject',
    'decline',
    'deny',
    'refuse',
    'i do not agree',
    'disagree',
  ],
  de: [
    'alle ablehnen',
    'alles ablehnen',
    'nur notwendige',
    'nur notwendige cookies',
    'nur erforderliche',
    'nur erforderliche cookies',
    'nur essenzielle cookies',
    'nur technisch notwendige',
    'weiter ohne zustimmung',
    'ablehnen',
    'nicht einverstanden',
  ],
  fr: ['tout refuser', 'refuser tout', 'refuser tous les cookies', 'continuer sans accepter', 'refuser', 'je refuse', 'refuser et fermer'],
  es: [
    'rechazar todo',
    'rechazar todas',
    'rechazar todas las cookies',
    'solo necesarias',
    'solo las necesarias',
    'rechazar',
    'denegar',
    'no acepto',
  ],
  it: ['rifiuta tutto', 'rifiuta tutti', 'rifiuta tutti i cookie', 'solo necessari', 'continua senza accettare', 'rifiuta', 'nega'],
  nl: [
    'alles weigeren',
    'alle weigeren',
    'alle cookies weigeren',
    'alleen noodzakelijke',
    'alleen noodzakelijke cookies',
    'weigeren',
    'afwijzen',
  ],
  pt: ['rejeitar tudo', 'rejeitar todos', 'recusar tudo', 'recusar todos', 'apenas necessários', 'só necessários', 'rejeitar', 'recusar'],
  pl: ['odrzuć wszystkie', 'odrzuć wszystko', 'tylko niezbędne', 'odrzuć', 'nie zgadzam się'],
  sv: ['avvisa alla', 'neka alla', 'avböj alla', 'endast nödvändiga', 'bara nödvändiga', 'avvisa', 'neka', 'avböj'],
  da: ['afvis alle', 'afslå alle', 'kun nødvendige', 'kun nødvendige cookies', 'afvis', 'afslå'],
  nb: ['avvis alle', 'avslå alle', 'kun nødvendige', 'avvis', 'avslå'],
  fi: ['hylkää kaikki', 'vain välttämättömät', 'hylkää'],
  cs: ['odmítnout vše', 'pouze nezbytné', 'odmítnout'],
};

/** All phrases of one choice in preference order: every language's "all" forms first, then the short ones. */
export function phrasesFor(choice: 'accept' | 'reject'): string[] {
  const table = choice === 'accept' ? ACCEPT_TEXTS : REJECT_TEXTS;
  const lists = Object.values(table);
  const strong = lists.flatMap((list) => list.filter((phrase) => phrase.split(' ').length > 1));
  const weak = lists.flatMap((list) => list.filter((phrase) => phrase.split(' ').length === 1));
  return [...new Set([...strong, ...weak])];
}
