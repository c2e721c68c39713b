/** The signers' mails in Spanish (keys and ICU arguments as en.ts). */
import type { MailMessages } from './en.js';

export const messages: MailMessages = {
  'org.unknown': 'Un usuario de Signet',
  'test.prefix': '[PRUEBA] ',
  'link.subject': '{reminder, select, yes {Recordatorio: } other {}}{org} le pide que firme «{document}»',
  'link.test': 'PRUEBA: esta es una solicitud de prueba; firmarla no tiene efecto legal y no se emite ningún certificado real.',
  'link.lead': '{org} le ha pedido que firme el documento «{document}».',
  'link.open': 'Abra este enlace para revisarlo y firmarlo:',
  'link.button': 'Revisar y firmar el documento',
  'link.paste': 'O pegue este enlace en su navegador:',
  'link.personal': 'El enlace es personal: no lo reenvíe. Si no esperaba esta solicitud, puede ignorar este correo.',
  'done.subject': 'Completado: «{document}» está firmado ({reference})',
  'done.test':
    'PRUEBA: esta es una transacción de prueba; no hubo ceremonia de firma, el PDF firmado lleva la marca TEST en cada página y no tiene efecto legal.',
  'done.lead': '«{document}», que {org} le pidió firmar, ya está firmado por todos.',
  'done.document': 'el documento',
  'done.certificate': 'Certificado {reference}.',
  'done.download': 'Descargar el PDF firmado',
  'done.contents': '(el documento, su registro de auditoría y las pruebas, sellados con un sello de tiempo de confianza)',
  'done.until':
    'El enlace funciona hasta el {date} (UTC). Cualquiera puede comprobar el certificado en la página de verificación indicada en el PDF.',
  'done.erasure': 'Sus grabaciones de cara y voz de la firma se conservan durante un tiempo limitado.',
  'done.erasureLink': 'Pedir que se borren (primero se avisa al remitente)',
  'sent.by': 'Enviado por Signet en nombre de {org}.',
  'reply.to': '¿Preguntas? Responda a este correo para contactar con {org}.',
};
