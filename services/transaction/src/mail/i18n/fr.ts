/** The signers' mails in French (keys and ICU arguments as en.ts). */
import type { MailMessages } from './en.js';

export const messages: MailMessages = {
  'org.unknown': 'Un utilisateur de Signet',
  'test.prefix': '[TEST] ',
  'link.subject': '{reminder, select, yes {Rappel : } other {}}{org} vous demande de signer « {document} »',
  'link.test': 'TEST : ceci est une demande de test ; la signer n’a aucun effet juridique et aucun vrai certificat n’est émis.',
  'link.lead': '{org} vous demande de signer le document « {document} ».',
  'link.open': 'Ouvrez ce lien pour le consulter et le signer :',
  'link.button': 'Consulter et signer le document',
  'link.paste': 'Ou collez ce lien dans votre navigateur :',
  'link.personal':
    'Ce lien est personnel : ne le transférez pas. Si vous n’attendiez pas cette demande, vous pouvez ignorer cet e-mail.',
  'done.subject': 'Terminé : « {document} » est signé ({reference})',
  'done.test':
    'TEST : ceci est une transaction de test ; aucune cérémonie de signature n’a eu lieu, le PDF signé porte la mention TEST sur chaque page et n’a aucun effet juridique.',
  'done.lead': '« {document} », que {org} vous a demandé de signer, est maintenant signé par tous.',
  'done.document': 'le document',
  'done.certificate': 'Certificat {reference}.',
  'done.download': 'Télécharger le PDF signé',
  'done.contents': '(le document, sa piste d’audit et les preuves, scellés par un horodatage de confiance)',
  'done.until':
    'Le lien fonctionne jusqu’au {date} (UTC). Chacun peut vérifier le certificat sur la page de vérification indiquée dans le PDF.',
  'done.erasure': 'Vos enregistrements du visage et de la voix pris pendant la signature sont conservés pour une durée limitée.',
  'done.erasureLink': 'Demander leur effacement (l’expéditeur est prévenu d’abord)',
  'sent.by': 'Envoyé par Signet pour le compte de {org}.',
  'reply.to': 'Des questions ? Répondez à cet e-mail pour joindre {org}.',
};
