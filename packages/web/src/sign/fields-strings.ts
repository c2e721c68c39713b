/**
 * What the signing page's field step says, in one place, in the signer's language (the page's
 * catalogues, i18n/*.ts, keys `fields.*`). Getters, so each read is in the language the page
 * chose; functions for the strings that carry a value.
 */
import { t } from './i18n/index.js';

const KINDS = ['signature', 'initials', 'date_signed', 'full_name', 'email', 'text', 'checkbox', 'dropdown'] as const;

export const fieldStrings = {
  get heading() {
    return t('fields.heading');
  },
  get intro() {
    return t('fields.intro');
  },
  get loadingDocument() {
    return t('fields.loadingDocument');
  },
  get documentFailed() {
    return t('fields.documentFailed');
  },
  page: (n: number, of: number) => t('fields.page', { n, of }),
  get formHeading() {
    return t('fields.formHeading');
  },
  get required() {
    return t('fields.required');
  },
  get readonly() {
    return t('fields.readonly');
  },
  get computed() {
    return t('fields.computed');
  },
  get dateSigned() {
    return t('fields.dateSigned');
  },
  get kinds(): Record<string, string> {
    return Object.fromEntries(KINDS.map((k) => [k, t(`fields.kind.${k}`)]));
  },
  get signature() {
    return t('fields.signature');
  },
  get initials() {
    return t('fields.initials');
  },
  usedIn: (n: number) => t('fields.usedIn', { count: n }),
  get draw() {
    return t('fields.draw');
  },
  get type() {
    return t('fields.type');
  },
  get clear() {
    return t('fields.clear');
  },
  drawArea: (what: string) => t('fields.drawArea', { what }),
  get drawHint() {
    return t('fields.drawHint');
  },
  get typeSignature() {
    return t('fields.typeSignature');
  },
  get typeInitials() {
    return t('fields.typeInitials');
  },
  get choose() {
    return t('fields.choose');
  },
  maxLength: (n: number) => t('fields.maxLength', { n }),
  get missing() {
    return t('fields.missing');
  },
  get missingMark() {
    return t('fields.missingMark');
  },
  get unticked() {
    return t('fields.unticked');
  },
  get fix() {
    return t('fields.fix');
  },
  get submit() {
    return t('fields.submit');
  },
  get change() {
    return t('fields.change');
  },
  get saving() {
    return t('fields.saving');
  },
  get declinePrompt() {
    return t('decline.ask');
  },
  get decline() {
    return t('decline.button');
  },
};
