/**
 * A field's box on a rendered page of the template editor: dragged to move, its corner dragged to
 * resize (pointer events: mouse, pen or finger), arrow keys to move (Shift: 10 points) and Alt+arrows
 * to resize when it has focus, Delete to remove. Positions are kept in PDF points; the box is drawn
 * in percentages of its page.
 */
import { boxStyle, type RenderedPage } from '../../../shared/pdf.js';
import { moved, resized, type Box } from './geometry.js';
import { templateStrings as t } from './strings.js';
import type { TemplateField } from './templates-api.js';

export type BoxHooks = { select(): void; changed(): void; remove(): void };

export function fieldBox(f: TemplateField, page: RenderedPage, hooks: BoxHooks): { el: HTMLElement; draw: () => void } {
  const el = document.createElement('div');
  el.className = `tfld tfld-${f.type}`;
  el.tabIndex = 0;
  el.setAttribute('role', 'button');
  el.dataset.field = f.id ?? '';
  const caption = document.createElement('span');
  const handle = document.createElement('div');
  handle.className = 'tfld-resize';
  handle.setAttribute('aria-hidden', 'true');
  el.append(caption, handle);
  const box = (): Box => ({ x: f.x ?? 0, y: f.y ?? 0, width: f.width ?? 0, height: f.height ?? 0 });
  const apply = (b: Box) => {
    Object.assign(f, b);
    draw();
    hooks.changed();
  };
  const draw = () => {
    Object.assign(el.style, boxStyle(page, box()));
    caption.textContent = `${t.kinds[f.type] ?? f.type} · ${f.role}`;
    el.setAttribute('aria-label', `${t.kinds[f.type] ?? f.type}, ${f.role}, ${t.place(f)}`);
  };
  draw();
  // Pixels to points at the page's shown width.
  const k = () => page.width / page.element.getBoundingClientRect().width;
  const drag = (e: PointerEvent, resize: boolean) => {
    e.preventDefault();
    e.stopPropagation();
    hooks.select();
    const start = { x: e.clientX, y: e.clientY, b: box() };
    const target = e.currentTarget as HTMLElement;
    target.setPointerCapture(e.pointerId);
    target.onpointermove = (m) => {
      const dx = (m.clientX - start.x) * k();
      const dy = -(m.clientY - start.y) * k();
      apply(resize ? resized(start.b, dx, dy, page) : moved(start.b, dx, dy, page));
    };
    target.onpointerup = target.onpointercancel = () => {
      target.onpointermove = null;
      target.onpointerup = null;
      el.focus();
    };
  };
  el.onpointerdown = (e) => drag(e, false);
  handle.onpointerdown = (e) => drag(e, true);
  el.onfocus = () => hooks.select();
  el.onkeydown = (e) => {
    if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      return hooks.remove();
    }
    const step = e.shiftKey ? 10 : 1;
    const d: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, step],
      ArrowDown: [0, -step],
    };
    const v = d[e.key];
    if (!v) return;
    e.preventDefault();
    apply(e.altKey ? resized(box(), v[0], v[1], page) : moved(box(), v[0], v[1], page));
  };
  return { el, draw };
}
