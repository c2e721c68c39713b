// Converts a Kubernetes OpenAPI v2 spec (api/openapi-spec/swagger.json of the k8s.io/kubernetes
// module) into the standalone, strict JSON schemas kubeconform reads offline, one file per kind and
// API version named as kubeconform looks them up: <kind><-group-first-label>-<version>.json, e.g.
// deployment-apps-v1.json, service-v1.json, networkpolicy-networking-v1.json.
//
//   node scripts/k8s-schemas.mjs <swagger.json> <out-dir>
//
// Standalone: every $ref is inlined (a reference back into itself — JSONSchemaProps — becomes an
// unconstrained schema). Strict: objects that list their properties refuse any other
// (additionalProperties: false), so a misspelt or misplaced field fails. As in the schemas kubeconform
// downloads by default, every type also admits null (a template may render `key: null`), an
// int-or-string accepts both, and a Quantity accepts a string or a number (`cpu: 1`).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [specPath, outDir] = process.argv.slice(2);
if (!specPath || !outDir) {
  console.error('usage: node scripts/k8s-schemas.mjs <swagger.json> <out-dir>');
  process.exit(2);
}
const spec = JSON.parse(readFileSync(specPath, 'utf8'));
const defs = spec.definitions;

const nullable = (type) => (Array.isArray(type) ? [...new Set([...type, 'null'])] : [type, 'null']);

function convert(schema, stack) {
  if (schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((s) => convert(s, stack));
  if (schema.$ref) {
    const name = schema.$ref.replace('#/definitions/', '');
    if (stack.includes(name)) return {};
    const target = defs[name];
    if (!target) throw new Error(`unresolved $ref ${schema.$ref}`);
    return convert(target, [...stack, name]);
  }
  if (schema.format === 'int-or-string') {
    return {
      oneOf: [{ type: ['string', 'null'] }, { type: ['integer', 'null'] }],
      ...(schema.description ? { description: schema.description } : {}),
    };
  }
  const out = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k.startsWith('x-kubernetes-')) continue;
    if (k === 'properties') out.properties = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, convert(s, stack)]));
    else if (k === 'items' || k === 'additionalProperties') out[k] = typeof v === 'object' ? convert(v, stack) : v;
    else if (k === 'allOf' || k === 'oneOf' || k === 'anyOf') out[k] = v.map((s) => convert(s, stack));
    else if (k === 'type') out.type = nullable(v);
    else out[k] = v;
  }
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

// Quantity is `type: string` in the spec, but a number is what many manifests write.
defs['io.k8s.apimachinery.pkg.api.resource.Quantity'] = {
  oneOf: [{ type: 'string' }, { type: 'number' }],
  description: defs['io.k8s.apimachinery.pkg.api.resource.Quantity']?.description,
};

mkdirSync(outDir, { recursive: true });
let written = 0;
for (const [name, def] of Object.entries(defs)) {
  const gvks = def['x-kubernetes-group-version-kind'];
  if (!gvks) continue;
  const schema = convert(def, [name]);
  for (const { group, version, kind } of gvks) {
    // Lists and the API machinery's own kinds (Status, WatchEvent, DeleteOptions…) are not manifests.
    if (kind.endsWith('List') || name.startsWith('io.k8s.apimachinery.')) continue;
    const suffix = group ? `-${group.split('.')[0].toLowerCase()}-${version.toLowerCase()}` : `-${version.toLowerCase()}`;
    const apiVersion = group ? `${group}/${version}` : version;
    const own = JSON.parse(JSON.stringify(schema));
    // apiVersion and kind must name this kind (a Deployment validated as a StatefulSet fails).
    if (own.properties?.apiVersion) own.properties.apiVersion = { type: 'string', enum: [apiVersion] };
    if (own.properties?.kind) own.properties.kind = { type: 'string', enum: [kind] };
    own.$schema = 'http://json-schema.org/schema#';
    writeFileSync(join(outDir, `${kind.toLowerCase()}${suffix}.json`), JSON.stringify(own));
    written++;
  }
}
console.log(`${written} schemas in ${outDir}`);
