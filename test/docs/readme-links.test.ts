import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DOCS } from './readme-blocks.js';

// The README and the guides are read on npm and in the API docs, from the tarball: every relative link must reach a
// file the tarball holds, every `#anchor` a heading of the document it names; the README must stay an npm user's
// README (a table of contents, ≤ ~4 000 words) that links to every guide.
const run = promisify(execFile);
const root = new URL('../../', import.meta.url);
const read = (doc: string) => readFileSync(new URL(doc, root), 'utf8');
const outsideCode = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's (and npm's) heading anchor: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
const headings = (doc: string) =>
  new Set([...outsideCode(read(doc)).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] as string)));

/** Every link of `doc` outside code, resolved from the package root: `{ file, anchor }`. */
function links(doc: string): { file: string; anchor: string | undefined }[] {
  const prose = outsideCode(read(doc)).replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((target) => !/^[a-z]+:/i.test(target))
    .map((target) => {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? doc : posix.normalize(posix.join(posix.dirname(doc), decodeURI(path)));
      return { file, anchor };
    });
}

describe('README and guide links', () => {
  it('link to files, and each is in the packed tarball', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root });
    const packed = new Set(
      (JSON.parse(stdout) as [{ files: { path: string }[] }])[0].files.map((f) => f.path),
    );
    for (const doc of DOCS) expect(packed.has(doc), doc).toBe(true);
    const files = DOCS.flatMap((doc) => links(doc).map((link) => `${doc} → ${link.file}`));
    expect(files).toContain('README.md → CONTRIBUTING.md');
    expect(files.filter((f) => !packed.has(f.split(' → ')[1] as string))).toEqual([]);
  }, 60_000);

  it('link to sections that exist', () => {
    const anchors = DOCS.flatMap((doc) =>
      links(doc).flatMap((link) =>
        link.anchor === undefined ? [] : [`${doc} → ${link.file}#${link.anchor}`],
      ),
    );
    expect(anchors.length).toBeGreaterThan(10);
    const broken = anchors.filter((a) => {
      const [file, anchor] = (a.split(' → ')[1] as string).split('#') as [string, string];
      return !headings(file).has(anchor);
    });
    expect(broken).toEqual([]);
  });

  it('the README has a table of contents, links every guide and stays under ~4 000 words', () => {
    const readme = read('README.md');
    const contents = readme.slice(readme.indexOf('## Contents'), readme.indexOf('## Install'));
    for (const heading of outsideCode(readme).matchAll(/^## (.+)$/gm))
      if (heading[1] !== 'Contents')
        expect(contents, heading[1]).toContain(`(#${slug(heading[1] as string)})`);
    const guides = links('README.md').map((link) => link.file);
    for (const guide of DOCS.filter((doc) => doc.startsWith('docs/'))) expect(guides, guide).toContain(guide);
    // A contributor's two commands, as a block to copy.
    expect(readme).toMatch(/^```sh\nnpm install && npm run demo .*\nnpm test .*\n```$/m);
    expect(readme.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length).toBeLessThanOrEqual(
      4_000,
    );
  });

  it('name the bin through its package, so npx never asks the registry for a package named like the bin', () => {
    for (const doc of DOCS) {
      const bare = read(doc)
        .split('\n')
        .filter((line) => /npx content-platform-reference-server/.test(line));
      // Only the guide's own explanation of why may name the bare command.
      expect(
        bare.every((line) => doc === 'docs/reference-server.md' && /outside a project|depends on/.test(line)),
        doc,
      ).toBe(true);
    }
    expect(read('README.md')).toContain('npx -p content-platform-sdk content-platform-reference-server');
  });
});
