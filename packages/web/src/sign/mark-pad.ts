/**
 * A signer's adopted signature or initials: drawn on a canvas (pointer events, any of finger, pen or
 * mouse) and sent as a PNG, or typed (the keyboard's way) and rendered by the service. One of each
 * per signer: every signature field shows the same mark.
 */
import { fieldStrings as t } from './fields-strings.js';

export type Mark = { png: string } | { typed: string };

export type MarkPad = {
  element: HTMLFieldSetElement;
  /** The mark to send; undefined when nothing was drawn or typed. */
  value(): Mark | undefined;
  /** What the document's boxes show: an image URL for a drawing, or the typed text. */
  preview(): { image?: string; text?: string };
  focus(): void;
};

let seq = 0;

export function markPad(kind: 'signature' | 'initials', places: number, onChange: () => void): MarkPad {
  const id = `mark-${kind}-${++seq}`;
  const title = kind === 'signature' ? t.signature : t.initials;
  const fs = document.createElement('fieldset');
  fs.className = 'mark';
  fs.dataset.mark = kind;
  const legend = document.createElement('legend');
  legend.textContent = title;
  const where = document.createElement('p');
  where.className = 'small';
  where.textContent = t.usedIn(places);
  const modes = document.createElement('div');
  modes.className = 'mark-modes';
  modes.setAttribute('role', 'radiogroup');
  const typed = document.createElement('input');
  typed.type = 'text';
  typed.id = `${id}-typed`;
  typed.maxLength = 100;
  typed.autocomplete = kind === 'signature' ? 'name' : 'off';
  const typedLabel = document.createElement('label');
  typedLabel.htmlFor = typed.id;
  typedLabel.textContent = kind === 'signature' ? t.typeSignature : t.typeInitials;
  const typeBox = document.createElement('div');
  typeBox.className = 'mark-type';
  typeBox.append(typedLabel, typed);
  const draw = drawArea(kind, title, onChange);
  let mode: 'type' | 'draw' = 'type';
  const radio = (m: 'type' | 'draw', text: string) => {
    const l = document.createElement('label');
    const r = document.createElement('input');
    r.type = 'radio';
    r.name = `${id}-mode`;
    r.value = m;
    r.checked = m === mode;
    r.onchange = () => {
      mode = m;
      typeBox.hidden = m !== 'type';
      draw.box.hidden = m !== 'draw';
      onChange();
    };
    l.append(r, ` ${text}`);
    return l;
  };
  modes.append(radio('type', t.type), radio('draw', t.draw));
  draw.box.hidden = true;
  typed.oninput = () => onChange();
  fs.append(legend, where, modes, typeBox, draw.box);
  return {
    element: fs,
    value: () => {
      if (mode === 'type') return typed.value.trim() ? { typed: typed.value.trim() } : undefined;
      return draw.inked() ? { png: draw.png() } : undefined;
    },
    preview: () => (mode === 'type' ? { text: typed.value.trim() } : draw.inked() ? { image: draw.dataUrl() } : {}),
    focus: () => (mode === 'type' ? typed.focus() : fs.querySelector<HTMLInputElement>('input[type=radio]:checked')?.focus()),
  };
}

/** The drawing canvas (600×200 or 300×150 pixels inside the service's 16×8 to 1200×600) and its Clear button. */
function drawArea(kind: string, title: string, onChange: () => void) {
  const box = document.createElement('div');
  box.className = 'mark-draw';
  const canvas = document.createElement('canvas');
  canvas.width = kind === 'signature' ? 600 : 300;
  canvas.height = kind === 'signature' ? 200 : 150;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', t.drawArea(title));
  const ctx = canvas.getContext('2d')!;
  ctx.lineWidth = kind === 'signature' ? 4 : 5;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.strokeStyle = '#0a1f44';
  let ink = false;
  let last: [number, number] | undefined;
  const at = (e: PointerEvent): [number, number] => {
    const r = canvas.getBoundingClientRect();
    return [((e.clientX - r.left) * canvas.width) / r.width, ((e.clientY - r.top) * canvas.height) / r.height];
  };
  canvas.onpointerdown = (e) => {
    canvas.setPointerCapture(e.pointerId);
    last = at(e);
    e.preventDefault();
  };
  canvas.onpointermove = (e) => {
    if (!last) return;
    const p = at(e);
    ctx.beginPath();
    ctx.moveTo(...last);
    ctx.lineTo(...p);
    ctx.stroke();
    last = p;
    ink = true;
  };
  canvas.onpointerup = canvas.onpointercancel = () => {
    if (last) onChange();
    last = undefined;
  };
  const hint = document.createElement('p');
  hint.className = 'small';
  hint.textContent = t.drawHint;
  const clear = document.createElement('button');
  clear.type = 'button';
  clear.textContent = t.clear;
  clear.onclick = () => {
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ink = false;
    onChange();
  };
  box.append(hint, canvas, clear);
  const dataUrl = () => canvas.toDataURL('image/png');
  const png = () => {
    const url = dataUrl();
    return url.slice(url.indexOf(',') + 1);
  };
  return { box, inked: () => ink, dataUrl, png };
}
