/** The signers' mails in Portuguese (keys and ICU arguments as en.ts). */
import type { MailMessages } from './en.js';

export const messages: MailMessages = {
  'org.unknown': 'Um utilizador do Signet',
  'test.prefix': '[TESTE] ',
  'link.subject': '{reminder, select, yes {Lembrete: } other {}}{org} pede-lhe que assine «{document}»',
  'link.test': 'TESTE: este é um pedido de teste; assiná-lo não tem efeito legal e não é emitido nenhum certificado real.',
  'link.lead': '{org} pediu-lhe que assine o documento «{document}».',
  'link.open': 'Abra este link para o rever e assinar:',
  'link.button': 'Rever e assinar o documento',
  'link.paste': 'Ou cole este link no seu navegador:',
  'link.personal': 'O link é pessoal: não o reencaminhe. Se não esperava este pedido, pode ignorar este e-mail.',
  'done.subject': 'Concluído: «{document}» está assinado ({reference})',
  'done.test':
    'TESTE: esta é uma transação de teste; não houve cerimónia de assinatura, o PDF assinado está marcado TEST em todas as páginas e não tem efeito legal.',
  'done.lead': '«{document}», que {org} lhe pediu para assinar, está agora assinado por todos.',
  'done.document': 'o documento',
  'done.certificate': 'Certificado {reference}.',
  'done.download': 'Descarregar o PDF assinado',
  'done.contents': '(o documento, o seu registo de auditoria e as provas, selados com um carimbo temporal de confiança)',
  'done.until':
    'O link funciona até {date} (UTC). Qualquer pessoa pode verificar o certificado na página de verificação indicada no PDF.',
  'done.erasure': 'As suas gravações de rosto e voz da assinatura são guardadas durante um tempo limitado.',
  'done.erasureLink': 'Pedir que sejam apagadas (o remetente é avisado primeiro)',
  'sent.by': 'Enviado pelo Signet em nome de {org}.',
  'reply.to': 'Dúvidas? Responda a este e-mail para contactar {org}.',
};
