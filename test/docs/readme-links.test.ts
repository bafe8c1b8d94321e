import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The README is read on npm, from the tarball: every relative link must reach a file the tarball holds, and every
// `#anchor` a heading of the README itself.
const run = promisify(execFile);
const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');

/** The README without fenced blocks and code spans, where `](` is code, not a link. */
const prose = readme.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
const targets = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);
const relative = targets.filter((t) => !/^[a-z]+:/i.test(t) && !t.startsWith('#'));
const anchors = targets.filter((t) => t.startsWith('#')).map((t) => t.slice(1));

/** GitHub's (and npm's) heading anchor: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
const headings = new Set(
  [...readme.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] as string)),
);

describe('README links', () => {
  it('links to files, and each is in the packed tarball', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: new URL('../..', import.meta.url),
    });
    const packed = new Set(
      (JSON.parse(stdout) as [{ files: { path: string }[] }])[0].files.map((f) => f.path),
    );
    const files = relative.map((t) => decodeURI(t.split('#')[0] as string).replace(/^\.\//, ''));
    expect(files).toContain('CONTRIBUTING.md');
    expect(files.filter((f) => !packed.has(f))).toEqual([]);
  }, 60_000);

  it('links to sections that exist', () => {
    expect(anchors.length).toBeGreaterThan(5);
    expect(anchors.filter((a) => !headings.has(a))).toEqual([]);
  });
});
