/**
 * Syntax highlighting for Python (FX code, AOT graphs, inductor wrappers, decompiled source) and C++ kernels.
 *
 * Uses the Lezer parsers that CodeMirror 6 (and so JupyterLab) is built on, imported lazily and cached in
 * `Private`. Output is DOM built from text nodes and `tok-*` classes; colours come from --jp-mirror-editor-*.
 */
import { clear, h } from '../dom';

/** Languages we highlight. */
export type Language = 'python' | 'cpp' | 'text';

/** One highlighted line: text pieces with their token classes ('' for plain). */
export type Line = Array<[string, string]>;

/** Above this many characters code is shown plain: parsing and one span per token would be slow. */
export const HIGHLIGHT_LIMIT = 400_000;

/**
 * Split code into lines of classed pieces.
 */
export async function highlightLines(code: string, language: Language): Promise<Line[]> {
  if (language === 'text' || code.length > HIGHLIGHT_LIMIT) {
    return code.split('\n').map(text => [[text, '']]);
  }
  const { highlightCode, classHighlighter, parser } = await Private.load(language);
  const lines: Line[] = [[]];
  highlightCode(
    code,
    parser.parse(code),
    classHighlighter,
    (text, classes) => lines[lines.length - 1].push([text, classes]),
    () => lines.push([])
  );
  return lines;
}

/**
 * Fill `target` with one line's pieces.
 */
export function appendLine(target: HTMLElement, line: Line): void {
  for (const [text, classes] of line) {
    if (classes) {
      target.appendChild(h('span', { class: classes, text }));
    } else {
      target.appendChild(document.createTextNode(text));
    }
  }
}

/** Lines a code block shows before 'show all' (a 10,000-node graph prints 60,000 lines). */
export const PREVIEW_LINES = 3000;

/**
 * Characters a code block shows before 'show all', whatever its lines: a 100,000-node graph's `forward` takes its
 * 40,000 parameters on one line of 4.9 MB, which the browser took 0.7 s to lay out.
 */
export const PREVIEW_CHARS = 200_000;

/** Is code of `lines` lines too long for a row a line (codeRows.ts): shown as one plain block (`codeBlock`)? */
export function tooLongForRows(code: string, lines: number): boolean {
  return lines > PREVIEW_LINES || code.length > PREVIEW_CHARS;
}

/**
 * Render code into a <pre>: plain text first, highlighted once the parser has loaded.
 *
 * Returns the element at once and a promise that settles when the highlighted text is in place.
 * Long code shows its first PREVIEW_LINES lines (at most PREVIEW_CHARS characters), plain, with a button that shows
 * the rest.
 */
export function codeBlock(code: string, language: Language): { element: HTMLElement; done: Promise<void> } {
  const lineCount = countLines(code, PREVIEW_LINES + 1);
  if (lineCount > PREVIEW_LINES || code.length > HIGHLIGHT_LIMIT) {
    let cut = -1;
    for (let i = 0; i < PREVIEW_LINES && cut < PREVIEW_CHARS; i++) {
      const next = code.indexOf('\n', cut + 1);
      if (next === -1) {
        cut = code.length;
        break;
      }
      cut = next;
    }
    const head = code.slice(0, Math.min(cut, PREVIEW_CHARS));
    const pre = h('pre', { class: 'jp-DynamoExplorer-code', text: head });
    const wrapper = h('div', {}, pre);
    if (head.length < code.length) {
      const all = h('button', {
        class: 'jp-DynamoExplorer-more',
        text: `show all (${(code.length / 1e6).toFixed(1)} MB)`,
        onclick: () => {
          pre.textContent = code;
          all.remove();
        }
      });
      all.type = 'button';
      wrapper.appendChild(all);
    }
    return { element: wrapper, done: Promise.resolve() };
  }
  const element = h('pre', { class: 'jp-DynamoExplorer-code', text: code });
  const done = highlightLines(code, language)
    .then(lines => {
      clear(element);
      lines.forEach((line, i) => {
        appendLine(element, line);
        if (i < lines.length - 1) {
          element.appendChild(document.createTextNode('\n'));
        }
      });
    })
    .catch(() => {
      // Keep the plain text: highlighting is a convenience.
    });
  return { element, done };
}

/** Module-private state. */
namespace Private {
  type Highlight = typeof import('@lezer/highlight');
  type Parser = { parse(input: string): import('@lezer/common').Tree };
  const cache = new Map<string, Promise<Highlight & { parser: Parser }>>();

  /**
   * Import the highlighter and the parser of a language once.
   */
  export function load(language: 'python' | 'cpp'): Promise<Highlight & { parser: Parser }> {
    let loaded = cache.get(language);
    if (!loaded) {
      const parserModule =
        language === 'python'
          ? import('@lezer/python').then(m => m.parser as Parser)
          : import('@lezer/cpp').then(m => m.parser as Parser);
      loaded = Promise.all([import('@lezer/highlight'), parserModule]).then(([hl, parser]) => ({ ...hl, parser }));
      loaded.catch(() => cache.delete(language));
      cache.set(language, loaded);
    }
    return loaded;
  }
}

/** Number of lines of `code`, counting no further than `limit`. */
function countLines(code: string, limit: number): number {
  let n = 1;
  for (let i = code.indexOf('\n'); i !== -1 && n < limit; i = code.indexOf('\n', i + 1)) {
    n += 1;
  }
  return n;
}
