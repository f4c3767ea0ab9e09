import { ToolRuntimeError } from '../../../lib/errors/tool-runtime-error';
import {
  MAX_NESTING_DEPTH,
  extractReadableHtml,
  toLines,
} from '../../../lib/builtins/fetch-url/extract-readable-html';

describe('extractReadableHtml', () => {
  it('skips script, style, noscript, svg, canvas and template content', () => {
    const html =
      '<p>a</p><script>s()</script><style>x{}</style><noscript>n</noscript><svg><text>t</text></svg>' +
      '<canvas>c</canvas><template>tp</template><p>b</p>';
    expect(extractReadableHtml(html)).toEqual({ title: '', text: 'a\nb' });
  });

  it('breaks lines at block elements and joins inline text with spaces', () => {
    expect(
      extractReadableHtml(
        '<div>one <span>two</span><br>three</div><table><tr><td>x</td><td>y</td></tr></table>',
      ).text,
    ).toBe('one two\nthree\nx\ny');
  });

  it('keeps source line breaks inside <pre> only', () => {
    expect(extractReadableHtml('<p>a\nb</p><pre>c\n  d</pre>').text).toBe('a b\nc\nd');
  });

  it('takes the first document <title>, normalized and cut at 500 characters, never an SVG title', () => {
    const title = 'T '.repeat(400);
    const result = extractReadableHtml(
      `<svg><title>icon</title></svg><title>\n ${title} </title><p>body</p>`,
    );
    expect(result.title).toHaveLength(500);
    expect(result.title.startsWith('T T')).toBe(true);
    expect(result.text).toBe('body');
  });

  it('decodes entities and survives unclosed and stray tags', () => {
    expect(extractReadableHtml('<p>&lt;ok&gt; &amp; &#x263A; &nbsp;x<p>next</div></span>').text).toBe(
      '<ok> & ☺ x\nnext',
    );
  });

  it('returns empty text for an empty document', () => {
    expect(extractReadableHtml('')).toEqual({ title: '', text: '' });
  });
});

describe('toLines', () => {
  it('collapses whitespace per line, trims lines and drops empty ones', () => {
    expect(toLines('  a \t b \r\n\n\r c  \n   ')).toBe('a b\nc');
  });
});

describe('extractReadableHtml nesting bound', () => {
  it('reads a page nested up to the bound', () => {
    const { text } = extractReadableHtml(
      `${'<div>'.repeat(MAX_NESTING_DEPTH)}deep${'</div>'.repeat(MAX_NESTING_DEPTH)}`,
    );
    expect(text).toBe('deep');
  });

  it('refuses a page of endless opening tags quickly, with a ToolRuntimeError', () => {
    const hostile = '<b>'.repeat(333_333);
    expect(() => extractReadableHtml(hostile)).toThrow(ToolRuntimeError);
    expect(() => extractReadableHtml(hostile)).toThrow(/nests HTML elements more than 512 levels deep/);
  });

  it('keeps counting depth down on closing tags, so long flat pages are fine', () => {
    const { text } = extractReadableHtml('<p><b>x</b></p>'.repeat(20_000));
    expect(text.length).toBeGreaterThan(0);
  });
});
