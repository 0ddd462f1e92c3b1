#!/usr/bin/env python3
"""
Writes test/fixtures/openapi/c1-openapi.admin-subset.json: the path items of the vendor's full
OpenAPI document that serve the objects admins act on (apps, entitlements, app users, grants,
entitlement members) and the identity users and policies other objects name, verbatim, with every
schema they reference (transitively) and google.rpc.Status, and records its provenance (source
hash, paths) beside it.

  /usr/bin/python3 scripts/openapi-admin-subset.py [path/to/c1-openapi.terraform-provider.yaml]

Default source: ../shared/reference/c1-openapi.terraform-provider.yaml (next to the repository).
"""
import hashlib
import json
import os
import sys

import yaml

PATHS = [
    '/api/v1/search/apps',
    '/api/v1/apps/{id}',
    '/api/v1/search/entitlements',
    '/api/v1/apps/{app_id}/entitlements/{id}',
    '/api/v1/search/app_users',
    '/api/v1/search/grants',
    '/api/v1/apps/{app_id}/entitlements/{app_entitlement_id}/users',
    '/api/v1/search/users',
    '/api/v1/search/policies',
]
# The app resource type is what an entitlement's `appResourceTypePath` points at in `expanded` (its type).
EXTRA_SCHEMAS = ['google.rpc.Status', 'c1.api.app.v1.AppResourceType']

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
source = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, '..', 'shared', 'reference', 'c1-openapi.terraform-provider.yaml')
out_dir = os.path.join(root, 'test', 'fixtures', 'openapi')

raw = open(source, 'rb').read()
document = yaml.safe_load(raw)
schemas = document['components']['schemas']


def refs(node, found):
    if isinstance(node, dict):
        ref = node.get('$ref')
        if isinstance(ref, str) and ref.startswith('#/components/schemas/'):
            name = ref.split('/')[-1]
            if name not in found:
                found.add(name)
                refs(schemas[name], found)
        for value in node.values():
            refs(value, found)
    elif isinstance(node, list):
        for value in node:
            refs(value, found)


paths = {path: document['paths'][path] for path in PATHS}
needed = set(EXTRA_SCHEMAS)
refs(paths, needed)
for name in EXTRA_SCHEMAS:
    refs(schemas[name], needed)

subset = {
    'openapi': document['openapi'],
    'info': {**document['info'], 'x-subset-of': 'the paths listed in c1-openapi.admin-subset.provenance.json; schemas transitively closed'},
    'paths': paths,
    'components': {'schemas': {name: schemas[name] for name in sorted(needed)}},
}
text = json.dumps(subset, indent=1, ensure_ascii=False, sort_keys=False) + '\n'
with open(os.path.join(out_dir, 'c1-openapi.admin-subset.json'), 'w', encoding='utf-8') as f:
    f.write(text)
provenance = {
    'file': 'c1-openapi.admin-subset.json',
    'derived_from': 'c1-openapi.terraform-provider.yaml',
    'source_sha256': hashlib.sha256(raw).hexdigest(),
    'source_bytes': len(raw),
    'generator': 'scripts/openapi-admin-subset.py',
    'paths': PATHS,
    'extra_schemas': EXTRA_SCHEMAS,
    'schema_count': len(needed),
    'sha256': hashlib.sha256(text.encode('utf-8')).hexdigest(),
}
with open(os.path.join(out_dir, 'c1-openapi.admin-subset.provenance.json'), 'w', encoding='utf-8') as f:
    f.write(json.dumps(provenance, indent=1) + '\n')
print(f"{len(PATHS)} paths, {len(needed)} schemas, {len(text)} bytes")
