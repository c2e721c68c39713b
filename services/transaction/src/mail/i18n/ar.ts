/** The signers' mails in Arabic, right to left (keys and ICU arguments as en.ts). */
import type { MailMessages } from './en.js';

export const messages: MailMessages = {
  'org.unknown': 'أحد مستخدمي Signet',
  'test.prefix': '[اختبار] ',
  'link.subject': '{reminder, select, yes {تذكير: } other {}}{org} يطلب منك توقيع «{document}»',
  'link.test': 'اختبار: هذا طلب تجريبي؛ توقيعه ليس له أثر قانوني ولا تصدر عنه شهادة حقيقية.',
  'link.lead': 'طلب منك {org} توقيع المستند «{document}».',
  'link.open': 'افتح هذا الرابط لمراجعته وتوقيعه:',
  'link.button': 'مراجعة المستند وتوقيعه',
  'link.paste': 'أو الصق هذا الرابط في متصفحك:',
  'link.personal': 'الرابط شخصي: لا تُعِد توجيهه. إذا لم تكن تتوقع هذا الطلب فيمكنك تجاهل هذه الرسالة.',
  'done.subject': 'اكتمل: تم توقيع «{document}» ({reference})',
  'done.test':
    'اختبار: هذه معاملة تجريبية؛ لم تُجرَ أي مراسم توقيع، وملف PDF الموقّع يحمل علامة TEST في كل صفحة وليس له أثر قانوني.',
  'done.lead': 'المستند «{document}» الذي طلب منك {org} توقيعه موقَّع الآن من الجميع.',
  'done.document': 'المستند',
  'done.certificate': 'الشهادة {reference}.',
  'done.download': 'تنزيل ملف PDF الموقّع',
  'done.contents': '(المستند وسجل التدقيق والأدلة، مختومة بطابع زمني موثوق)',
  'done.until': 'يعمل الرابط حتى {date} (بالتوقيت العالمي). يمكن لأي شخص التحقق من الشهادة في صفحة التحقق المذكورة في ملف PDF.',
  'done.erasure': 'تُحفظ تسجيلات وجهك وصوتك من التوقيع لمدة محدودة.',
  'done.erasureLink': 'اطلب حذفها (يُبلَّغ المرسل أولًا)',
  'sent.by': 'أرسلته Signet نيابةً عن {org}.',
  'reply.to': 'لديك أسئلة؟ ردّ على هذه الرسالة للتواصل مع {org}.',
};
