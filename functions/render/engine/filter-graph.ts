/**
 * A clip's ffmpeg filter graph, written by one builder: it hands out input indices (every input named, so no
 * layer writes `[2:a]` by position) and fresh labels, and writes the `-filter_complex` script. Layers
 * (./layers/) and the soundtrack add their inputs and filters through it.
 */

/** A number as a filter's option is given it: at most four decimals, no trailing zeros. */
export const filterNumber = (n: number) => Number(n.toFixed(4)).toString();

/** An input of the run: its options, ending with `-i <file or pipe>`. */
type InputArgs = string[];

export class FilterGraph {
  private readonly inputs: { name: string; args: InputArgs }[] = [];
  private readonly filters: string[] = [];
  private labels = 0;

  /** Adds an input (its pinned options and `-i`) under `name`; returns its index. */
  input(name: string, args: InputArgs): number {
    if (this.inputs.some((i) => i.name === name)) throw new Error(`input "${name}" added twice`);
    if (args[args.length - 2] !== '-i') throw new Error(`input "${name}" must end with -i <source>`);
    this.inputs.push({ name, args });
    return this.inputs.length - 1;
  }

  /** The label of a named input's video or audio stream (`[1:v]`, without brackets). */
  stream(name: string, kind: 'v' | 'a'): string {
    const index = this.inputs.findIndex((i) => i.name === name);
    if (index < 0) throw new Error(`no input "${name}"`);
    return `${index}:${kind}`;
  }

  /** A label no other filter of the graph has. */
  label(prefix: string): string {
    return `${prefix}${this.labels++}`;
  }

  /** `[from…]filter[to]`: one filter chain from the labelled streams to a new label (`prefix` and a number), which it returns. */
  chain(from: string | string[], filter: string, prefix = 'v'): string {
    const to = this.label(prefix);
    const sources = (Array.isArray(from) ? from : [from]).map((l) => `[${l}]`).join('');
    this.filters.push(`${sources}${filter}[${to}]`);
    return to;
  }

  /** `[from]split=n[…]`: `n` copies of a stream, each under a new label. */
  split(from: string, n: number): string[] {
    const to = Array.from({ length: n }, () => this.label('split'));
    this.filters.push(`[${from}]split=${n}${to.map((l) => `[${l}]`).join('')}`);
    return to;
  }

  /** A source filter (no input: `color=…`) to a new label, which it returns. */
  source(filter: string, prefix = 'src'): string {
    const to = this.label(prefix);
    this.filters.push(`${filter}[${to}]`);
    return to;
  }

  /** Every input's options, in index order. */
  inputArgs(): string[] {
    return this.inputs.flatMap((i) => i.args);
  }

  /** The `-filter_complex` script. */
  script(): string {
    return this.filters.join(';');
  }
}
