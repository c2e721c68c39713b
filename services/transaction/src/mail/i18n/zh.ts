/** The signers' mails in Chinese, Simplified (keys and ICU arguments as en.ts). */
import type { MailMessages } from './en.js';

export const messages: MailMessages = {
  'org.unknown': '一位 Signet 用户',
  'test.prefix': '[测试] ',
  'link.subject': '{reminder, select, yes {提醒：} other {}}{org} 请您签署“{document}”',
  'link.test': '测试：这是一个测试请求；签署它没有法律效力，也不会签发真实的证书。',
  'link.lead': '{org} 请您签署文件“{document}”。',
  'link.open': '打开此链接查看并签署：',
  'link.button': '查看并签署文件',
  'link.paste': '或将此链接粘贴到浏览器中：',
  'link.personal': '此链接仅供您本人使用：请勿转发。如果您没有预期收到此请求，可以忽略这封邮件。',
  'done.subject': '已完成：“{document}”已签署（{reference}）',
  'done.test': '测试：这是一个测试交易；没有进行签署流程，签署后的 PDF 每页都标有 TEST，没有法律效力。',
  'done.lead': '{org} 请您签署的“{document}”现已由所有人签署。',
  'done.document': '该文件',
  'done.certificate': '证书 {reference}。',
  'done.download': '下载已签署的 PDF',
  'done.contents': '（文件、审计记录和证据，已用可信时间戳封存）',
  'done.until': '此链接有效期至 {date}（UTC）。任何人都可以在 PDF 中注明的验证页面核对证书。',
  'done.erasure': '签署时录制的面部和声音只保存有限的时间。',
  'done.erasureLink': '申请删除（会先通知发送方）',
  'sent.by': '由 Signet 代表 {org} 发送。',
  'reply.to': '有问题？回复此邮件即可联系 {org}。',
};
