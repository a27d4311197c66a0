/**
 * A crafted lexicon made each clip cost seconds of synchronous CPU: 500 entries sharing a 48-character prefix of
 * single-letter words ("a a a … a b7"), against a text of those words, tried every entry at every word start
 * through one alternation with `\s+` in it (2.5 s per clip in `pronunciationsFor`). Matching now walks a trie of
 * the folded words from each word start, so its cost is bounded by the text's length times the longest word.
 */
import { describe, expect, it } from 'vitest';
import { type LexiconEntry, parseLexicon, pronunciationsFor, speechScriptOf } from '#domain/lexicon';

const PREFIX = Array.from({ length: 24 }, () => 'a').join(' ');
/** 500 entries of 49 characters, all but their last word the same, each a valid entry. */
const WORST: LexiconEntry[] = parseLexicon({
  entries: Array.from({ length: 500 }, (_, i) => ({ word: `${PREFIX} ${i.toString(36).padStart(2, '0')}`, say: 'x' })),
});
/** 3,000 characters of the shared words: a word start at every other character, no entry matching in full. */
const TEXT = `${'a '.repeat(1499)}a`;

describe('lexicon matching, bounded', () => {
  it('takes the worst 500-entry lexicon on a 3,000-character text in under 100 ms of CPU', () => {
    expect(WORST).toHaveLength(500);
    expect(TEXT).toHaveLength(2999);
    pronunciationsFor('warm up', WORST);
    // CPU time, not the wall clock: the cost is this process's own work, whatever else the machine runs.
    const before = process.cpuUsage();
    const used = pronunciationsFor(TEXT, WORST);
    speechScriptOf(TEXT, used);
    const spent = process.cpuUsage(before);
    const cpuMs = (spent.user + spent.system) / 1000;
    expect(used).toEqual([]);
    console.log(`lexicon worst case: ${cpuMs.toFixed(1)} ms of CPU`);
    expect(cpuMs).toBeLessThan(100);
  });

  it('still finds a word of it where it is whole, the longest first, in any case and across spaces', () => {
    const entry = WORST[123]!;
    const text = `Then ${entry.word.toUpperCase().replace(/ /g, '  ')} and ${PREFIX}.`;
    expect(pronunciationsFor(text, WORST)).toEqual([entry]);
    expect(pronunciationsFor(`${entry.word}z`, WORST)).toEqual([]);
  });
});
