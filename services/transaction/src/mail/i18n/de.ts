/** The signers' mails in German (keys and ICU arguments as en.ts). */
import type { MailMessages } from './en.js';

export const messages: MailMessages = {
  'org.unknown': 'Ein Signet-Nutzer',
  'test.prefix': '[TEST] ',
  'link.subject': '{reminder, select, yes {Erinnerung: } other {}}{org} bittet Sie, „{document}“ zu unterschreiben',
  'link.test':
    'TEST: Dies ist eine Testanfrage; die Unterschrift hat keine rechtliche Wirkung und es wird kein echtes Zertifikat ausgestellt.',
  'link.lead': '{org} bittet Sie, das Dokument „{document}“ zu unterschreiben.',
  'link.open': 'Öffnen Sie diesen Link, um es zu prüfen und zu unterschreiben:',
  'link.button': 'Dokument prüfen und unterschreiben',
  'link.paste': 'Oder kopieren Sie diesen Link in Ihren Browser:',
  'link.personal':
    'Der Link ist persönlich: Leiten Sie ihn nicht weiter. Wenn Sie diese Anfrage nicht erwartet haben, können Sie diese E-Mail ignorieren.',
  'done.subject': 'Abgeschlossen: „{document}“ ist unterschrieben ({reference})',
  'done.test':
    'TEST: Dies ist eine Testtransaktion; es fand keine Signaturprüfung statt, das signierte PDF ist auf jeder Seite als TEST markiert und hat keine rechtliche Wirkung.',
  'done.lead': '„{document}“, das {org} Ihnen zur Unterschrift geschickt hat, ist jetzt von allen unterschrieben.',
  'done.document': 'das Dokument',
  'done.certificate': 'Zertifikat {reference}.',
  'done.download': 'Signiertes PDF herunterladen',
  'done.contents': '(das Dokument, sein Prüfprotokoll und die Nachweise, versiegelt mit einem vertrauenswürdigen Zeitstempel)',
  'done.until':
    'Der Link funktioniert bis {date} (UTC). Jeder kann das Zertifikat auf der im PDF genannten Prüfseite kontrollieren.',
  'done.erasure': 'Ihre Gesichts- und Sprachaufnahmen aus der Signatur werden nur begrenzte Zeit aufbewahrt.',
  'done.erasureLink': 'Löschung beantragen (der Absender wird zuerst informiert)',
  'sent.by': 'Von Signet im Auftrag von {org} gesendet.',
  'reply.to': 'Fragen? Antworten Sie auf diese E-Mail, um {org} zu erreichen.',
};
