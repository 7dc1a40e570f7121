/**
 * Untrusted strings stay text: a golden report whose user strings (source, code names, node names and
 * targets, guard code, break reasons, exception message, doc link, source labels and excerpts) carry <script> and <img onerror>
 * renders them as text, creates no script/img/iframe element and no event-handler attribute.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CompileReport } from '../src/schema';
import { golden, loadGoldens, render } from './helpers';

const SCRIPT = '<script>window.__xss = 1</script>';
const IMG = '<img src=x onerror="window.__xss = 2">';
const PAYLOAD = `${SCRIPT}${IMG}`;

afterEach(() => {
  document.body.textContent = '';
});

/** Keys whose values are free text a user can influence. */
const TEXT_KEYS = new Set([
  'source',
  'name',
  'target',
  'args',
  'reason',
  'explanation',
  'message',
  'argrepr',
  'gb_type',
  'code',
  'context',
  'guard_tree',
  'decompiled_source',
  'expr',
  'hints',
  'text',
  'label'
]);

function poison(value: unknown, key = ''): unknown {
  if (typeof value === 'string') {
    return TEXT_KEYS.has(key) ? value + PAYLOAD : value;
  }
  if (Array.isArray(value)) {
    return value.map(v => poison(v, key));
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = poison(v, k);
    }
    return out;
  }
  return value;
}

/** Rename FX nodes consistently (users refer to names) so names carry the payload too. */
function poisonNodeNames(report: CompileReport): void {
  for (const graph of report.graphs) {
    const rename = new Map(graph.nodes.map(n => [n.name, `${n.name}${IMG}`]));
    for (const node of graph.nodes) {
      node.name = rename.get(node.name)!;
      node.users = node.users.map(u => rename.get(u) ?? u);
    }
  }
}

describe.each(loadGoldens().map(([name]) => name))('golden %s with hostile strings', name => {
  it('shows them as text and injects no markup', async () => {
    const report = poison(golden(name)) as CompileReport;
    poisonNodeNames(report);
    report.error = { type: 'ValueError', message: PAYLOAD, line: 1, compile_id: null };
    for (const frame of report.frames) {
      for (const gb of frame.graph_breaks) {
        gb.doc_url = 'javascript:window.__xss=3';
      }
    }
    const { root } = await render(report);
    expect(root.dataset.status).toBe('ready');
    expect(root.querySelectorAll('script, img, iframe, object, embed, foreignObject')).toHaveLength(0);
    for (const el of Array.from(root.querySelectorAll('*'))) {
      for (const attr of Array.from(el.attributes)) {
        expect(attr.name.startsWith('on'), `${el.tagName} ${attr.name}`).toBe(false);
        expect(/^\s*javascript:/i.test(attr.value), `${el.tagName} ${attr.name}`).toBe(false);
      }
    }
    expect(root.textContent).toContain(PAYLOAD);
    expect(root.querySelector('[data-pane="source"]')!.textContent).toContain(SCRIPT);
    if (report.frames.length > 0) {
      const svg = root.querySelector('[data-pane="fx-graph"] svg');
      if (svg) {
        expect(svg.textContent).toContain('<img src=x');
      }
    }
    expect((window as unknown as { __xss?: number }).__xss).toBeUndefined();
  });
});
