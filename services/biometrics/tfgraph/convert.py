"""Convert Human's tfjs graph models into TensorFlow SavedModels of the same graph, so that tfjs-node
runs each as one TensorFlow session (graph optimisations, one call) instead of op by op.

    python convert.py MODELS_DIR OUT_DIR NAME [NAME ...]

For each NAME, MODELS_DIR/NAME.json (+ its weight shards) becomes OUT_DIR/NAME/ (saved_model.pb,
tag `serve`, signature `serving_default`). Inputs and outputs keep the names tfjs gives them: the
model's signature keys where it has a signature, else its placeholders and its leaf nodes (an output
key is the tensor name without `:0`). `OUT_DIR/NAME/source.sha256` holds the sha256 of NAME.bin, so
the service uses a conversion only for the weights it was made from. Two tfjs-only constructs are
rewritten: `Prelu` (TensorFlow has no such op) as relu(x) - alpha * relu(-x), also where tfjs fused
it into `_FusedConv2D`; and `_FusedConv2D` gets the `TArgs` attribute TensorFlow 2.15 requires.
Nothing else changes; the service checks each session against the graph model before using it.
"""
import hashlib
import json
import os
import shutil
import sys

import numpy as np
import tensorflow as tf
from google.protobuf.json_format import ParseDict
from tensorflow.core.framework.graph_pb2 import GraphDef
from tensorflow.core.framework.node_def_pb2 import NodeDef

DTYPES = {'float32': np.float32, 'int32': np.int32, 'bool': np.bool_}
QUANTIZED = {'float16': np.float16, 'uint8': np.uint8, 'uint16': np.uint16}
FLOAT = tf.float32.as_datatype_enum


def read_weights(model_json, manifest):
    base = os.path.dirname(model_json)
    out = {}
    for group in manifest:
        buf = b''.join(open(os.path.join(base, p), 'rb').read() for p in group['paths'])
        off = 0
        for w in group['weights']:
            shape = w['shape']
            n = int(np.prod(shape)) if shape else 1
            q = w.get('quantization')
            raw = np.frombuffer(buf, QUANTIZED[q['dtype']] if q else DTYPES[w['dtype']], n, off)
            off += n * raw.itemsize
            if q and q['dtype'] == 'float16':
                raw = raw.astype(np.float32)
            elif q:
                raw = raw.astype(np.float32) * q['scale'] + q['min']
            out[w['name']] = raw.reshape(shape)
    return out


def op(name, kind, inputs):
    n = NodeDef(name=name, op=kind, input=inputs)
    n.attr['T'].type = FLOAT
    return n


def prelu(name, x, alpha):
    return [
        op(name + '/prelu_pos', 'Relu', [x]),
        op(name + '/prelu_neg', 'Neg', [x]),
        op(name + '/prelu_negrelu', 'Relu', [name + '/prelu_neg']),
        op(name + '/prelu_scaled', 'Mul', [alpha, name + '/prelu_negrelu']),
        op(name, 'Sub', [name + '/prelu_pos', name + '/prelu_scaled']),
    ]


def rewrite(gd, weights):
    nodes = []
    for n in gd.node:
        if n.op == 'Const' and n.name in weights:
            n.attr['value'].tensor.CopyFrom(tf.make_tensor_proto(weights[n.name]))
        if n.op == 'Prelu':
            nodes += prelu(n.name, n.input[0], n.input[1])
            continue
        if n.op == '_FusedConv2D':
            fused = [s.decode() for s in n.attr['fused_ops'].list.s]
            if fused == ['BiasAdd', 'Prelu']:
                conv = NodeDef()
                conv.CopyFrom(n)
                conv.name = n.name + '/conv'
                del conv.input[3:]
                del conv.attr['fused_ops'].list.s[:]
                conv.attr['fused_ops'].list.s.append(b'BiasAdd')
                conv.attr['num_args'].i = 1
                conv.attr['TArgs'].list.type[:] = [FLOAT]
                nodes.append(conv)
                nodes += prelu(n.name, conv.name, n.input[3])
                continue
            if fused not in (['BiasAdd'], ['BiasAdd', 'Relu'], ['BiasAdd', 'Relu6']):
                raise ValueError(f'{n.name}: fused ops {fused} are not handled')
            n.attr['num_args'].i = len(n.input) - 2
            n.attr['TArgs'].list.type[:] = [FLOAT] * (len(n.input) - 2)
        nodes.append(n)
    del gd.node[:]
    gd.node.extend(nodes)


def io_names(m):
    """The input and output names tfjs's GraphModel gives the model."""
    sig = m.get('signature') or {}
    nodes = m['modelTopology']['node']
    if sig.get('inputs'):
        inputs = {k: v['name'] for k, v in sig['inputs'].items()}
    else:
        inputs = {n['name']: n['name'] for n in nodes if n['op'] == 'Placeholder'}
    if sig.get('outputs'):
        outputs = {k: v['name'] for k, v in sig['outputs'].items()}
    else:
        consumed = {i.lstrip('^').split(':')[0] for n in nodes for i in n.get('input', [])}
        outputs = {n['name']: n['name'] for n in nodes if n['name'] not in consumed and n['op'] not in ('Const', 'Placeholder')}
    return inputs, outputs


def convert(models_dir, out_dir, name):
    model_json = os.path.join(models_dir, name + '.json')
    m = json.load(open(model_json))
    gd = ParseDict(m['modelTopology'], GraphDef(), ignore_unknown_fields=True)
    rewrite(gd, read_weights(model_json, m['weightsManifest']))
    inputs, outputs = io_names(m)
    full = lambda t: t if ':' in t else t + ':0'
    target = os.path.join(out_dir, name)
    shutil.rmtree(target, ignore_errors=True)
    graph = tf.Graph()
    with graph.as_default():
        tf.graph_util.import_graph_def(gd, name='')
        with tf.compat.v1.Session(graph=graph) as sess:
            sig = tf.compat.v1.saved_model.signature_def_utils.predict_signature_def(
                {k.split(':')[0]: graph.get_tensor_by_name(full(v)) for k, v in inputs.items()},
                {k.split(':')[0]: graph.get_tensor_by_name(full(v)) for k, v in outputs.items()},
            )
            b = tf.compat.v1.saved_model.Builder(target)
            b.add_meta_graph_and_variables(sess, ['serve'], signature_def_map={'serving_default': sig})
            b.save()
    with open(os.path.join(models_dir, name + '.bin'), 'rb') as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    with open(os.path.join(target, 'source.sha256'), 'w') as f:
        f.write(digest + '\n')


if __name__ == '__main__':
    models_dir, out_dir, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out_dir, exist_ok=True)
    for name in names:
        convert(models_dir, out_dir, name)
        print(f'converted {name}')
