/** The signers' mails in Polish (keys and ICU arguments as en.ts). */
import type { MailMessages } from './en.js';

export const messages: MailMessages = {
  'org.unknown': 'Użytkownik Signet',
  'test.prefix': '[TEST] ',
  'link.subject': '{reminder, select, yes {Przypomnienie: } other {}}{org} prosi o podpisanie „{document}”',
  'link.test': 'TEST: to jest prośba testowa; podpis nie ma skutków prawnych i nie jest wystawiany prawdziwy certyfikat.',
  'link.lead': '{org} prosi o podpisanie dokumentu „{document}”.',
  'link.open': 'Otwórz ten link, aby go przejrzeć i podpisać:',
  'link.button': 'Przejrzyj i podpisz dokument',
  'link.paste': 'Albo wklej ten link do przeglądarki:',
  'link.personal':
    'Link jest osobisty: nie przekazuj go dalej. Jeśli nie spodziewałeś się tej prośby, możesz zignorować tę wiadomość.',
  'done.subject': 'Zakończono: „{document}” jest podpisany ({reference})',
  'done.test':
    'TEST: to jest transakcja testowa; nie odbyła się ceremonia podpisu, podpisany PDF jest oznaczony TEST na każdej stronie i nie ma skutków prawnych.',
  'done.lead': '„{document}”, o którego podpisanie prosił(a) {org}, jest teraz podpisany przez wszystkich.',
  'done.document': 'dokument',
  'done.certificate': 'Certyfikat {reference}.',
  'done.download': 'Pobierz podpisany PDF',
  'done.contents': '(dokument, jego ścieżka audytu i dowody, zapieczętowane zaufanym znacznikiem czasu)',
  'done.until': 'Link działa do {date} (UTC). Każdy może sprawdzić certyfikat na stronie weryfikacji podanej w pliku PDF.',
  'done.erasure': 'Nagrania twarzy i głosu z podpisu są przechowywane przez ograniczony czas.',
  'done.erasureLink': 'Poproś o ich usunięcie (najpierw powiadamiamy nadawcę)',
  'sent.by': 'Wysłane przez Signet w imieniu {org}.',
  'reply.to': 'Pytania? Odpowiedz na tę wiadomość, aby skontaktować się z {org}.',
};
