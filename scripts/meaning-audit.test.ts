// The meaning audit (openapi/meaning-audit.yaml) in step with the document, the state table, the registry of checks
// and the simulator's drifts: every field of spec §2.1-2.6 and every row of §3 has its entry, and every check an entry
// names is a check of the registry proven alone (a unit test with evidence that holds and breaks it) at a place it
// declares, which some breaking drift declares too, so the mutation run proves it fails where the words are broken.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadDocument } from '../openapi/document.ts';
import { CREATES, TRIGGERS } from '../contract/core/state-table.ts';
import { DRIFTS } from '../simulator/drifts/index.ts';
import { BUILT_IN } from '../checks/registry.ts';
import { checkExamples } from '../checks/examples.ts';
import { contractValidators } from '../openapi/validators.ts';
import { readAudit } from './meaning-audit.ts';

const audit = readAudit();
/** Every entry: fields and parameters, rows of §3, clauses. */
const entries = [...audit.fields, ...audit.rows, ...audit.clauses];
const nameOf = (e: (typeof entries)[number]) => e.field ?? e.row ?? e.clause;
const doc = loadDocument();
const schemas = (doc.components?.schemas ?? {}) as Record<string, Record<string, unknown>>;

/** "Schema.property" of every property a §2 schema declares itself (in properties, or an inline allOf member). */
function documentedFields(): string[] {
  const out: string[] = [];
  for (const [name, schema] of Object.entries(schemas)) {
    if (!/^2\.[1-6]$/.test(String(schema['x-spec-section'] ?? ''))) continue;
    const own = [schema, ...((schema.allOf as Array<Record<string, unknown>> | undefined) ?? []).filter((s) => !('$ref' in s))];
    for (const part of own) for (const property of Object.keys((part.properties as object | undefined) ?? {})) out.push(`${name}.${property}`);
  }
  return out;
}

test('every field of spec §2.1-2.6 in the document has one entry, and every entry names a field of the document', () => {
  const documented = documentedFields();
  const audited = audit.fields.map((e) => e.field!);
  assert.deepEqual(
    documented.filter((f) => !audited.includes(f)),
    [],
    'fields of §2 with no entry in openapi/meaning-audit.yaml',
  );
  const parameters = Object.keys(doc.components?.parameters ?? {}).map((p) => `parameter ${p}`);
  // An input beyond §2 (the message text of §4.2, §4.3) is named by its schema; a §2 item the document cannot hold
  // (the file record's fields: not shown) in words.
  const inputs = Object.keys(schemas).map((s) => `schema ${s}`);
  const known = new Set([...documented, ...parameters, ...inputs, 'file record']);
  assert.deepEqual(
    audited.filter((f) => !known.has(f)),
    [],
    'entries naming no field of the document',
  );
  assert.equal(new Set(audited).size, audited.length, 'a field with two entries');
  for (const section of ['2.1', '2.2', '2.3', '2.4', '2.5', '2.6'])
    assert.ok(
      audit.fields.some((e) => e.section === section),
      `no entry of §${section}`,
    );
});

test('every row of spec §3 has an entry: the creates, start, stop, and the transitions to completed', () => {
  const rows = [...Object.keys(CREATES), TRIGGERS.start, TRIGGERS.stop, 'transitions to completed'];
  assert.deepEqual(audit.rows.map((r) => r.row).sort(), [...rows].sort());
});

test('an entry states an invariant with its checks, or "none" with why', () => {
  for (const entry of entries) {
    const name = nameOf(entry);
    assert.ok(entry.words && entry.section, `${name}: words and section`);
    if (entry.invariant === 'none') {
      assert.ok(entry.why && !entry.checks, `${name}: "none" needs why, and no checks`);
    } else {
      assert.ok(entry.checks?.length && !entry.why, `${name}: an invariant needs the checks that hold it`);
    }
  }
});

test('every check of the audit is a place a breaking drift declares, so the mutation run proves it', () => {
  const declared = (operation: string, at: string) =>
    DRIFTS.some((d) => d.kind === 'breaking' && d.breaks?.some((b) => b.operations.includes(operation as never) && b.at.includes(at)));
  const unproven = entries.flatMap((e) => (e.checks ?? []).filter((c) => !declared(c.operation, c.at)).map((c) => `${nameOf(e)}: ${c.operation} ${c.at}`));
  assert.deepEqual(unproven, [], 'checks no drift of the simulator breaks');
});

test('every check of the audit is a check of the registry, proven alone, that names the place the audit gives', () => {
  const examples = checkExamples(contractValidators()) as Record<string, { breaks: readonly unknown[] }>;
  // A place a check declares, or one of its qualified places ("/*/id (pages disjoint)" names "/*/id", as the mutation
  // run reads it); a check that declares none names JSON pointers into the answer and its body.
  const names = (places: readonly string[] | undefined, at: string) =>
    places === undefined ? at.startsWith('/') || at === 'body' : places.some((p) => p === at || p.startsWith(`${at} (`));
  const wrong = entries.flatMap((e) =>
    (e.checks ?? []).flatMap((c) => {
      const check = BUILT_IN.find((k) => k.name === c.check);
      const where = `${nameOf(e)}: ${c.operation} ${c.at} ${c.check}`;
      if (!check) return [`${where}: no check of that name`];
      if (!examples[check.name]?.breaks.length) return [`${where}: no unit test breaks it (checks/examples.ts)`];
      return names(check.places, c.at) ? [] : [`${where}: the check declares no such place`];
    }),
  );
  assert.deepEqual(wrong, []);
});
