/** A labelled file input that also takes a dropped file, with a preview and the field's error slot. */
import { h, uid } from '../../dom.js';

function fmtSize(n: number) {
  return n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;
}

export async function head(file: File, n: number) {
  return new Uint8Array(await file.slice(0, n).arrayBuffer());
}

/** A drop zone around a labelled file input, with a preview and the field's error slot. */
export function dropZone(
  name: 'document' | 'reference',
  label: string,
  accept: string,
  hint: string,
  check: (f: File) => Promise<string | null>,
) {
  const id = uid(name);
  const input = h('input', { type: 'file', id, name, accept, class: 'file-input', 'aria-describedby': `${id}-hint ${id}-err` });
  const preview = h('div', { class: 'preview', 'aria-live': 'polite', id: `${id}-preview` });
  const err = h('p', { class: 'field-error', id: `${id}-err`, hidden: true });
  const zone = h(
    'div',
    { class: 'field drop', 'data-field': name },
    h('label', { for: id }, label),
    h('p', { class: 'hint', id: `${id}-hint` }, hint, ' Drop the file here or choose it.'),
    input,
    preview,
    err,
  );
  let file: File | null = null;
  let objectUrl: string | null = null;
  const take = async (f: File | undefined) => {
    err.hidden = true;
    input.removeAttribute('aria-invalid');
    if (objectUrl) URL.revokeObjectURL(objectUrl);
    objectUrl = null;
    file = null;
    preview.replaceChildren();
    if (!f) return;
    const problem = await check(f);
    if (problem) {
      err.textContent = problem;
      err.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    file = f;
    if (name === 'reference') {
      objectUrl = URL.createObjectURL(f);
      preview.append(h('img', { src: objectUrl, alt: `Preview of the face photo ${f.name}`, class: 'thumb' }));
    } else preview.append(h('span', { class: 'pdf-icon', 'aria-hidden': 'true' }, 'PDF'));
    preview.append(h('span', { class: 'file-meta' }, `${f.name} · ${fmtSize(f.size)}`));
  };
  input.addEventListener('change', () => void take(input.files?.[0]));
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    const f = e.dataTransfer?.files[0];
    if (f) {
      // Keep the input in step with what was dropped, so the form is one source of truth.
      const dt = new DataTransfer();
      dt.items.add(f);
      input.files = dt.files;
    }
    void take(f);
  });
  return { zone, file: () => file };
}
