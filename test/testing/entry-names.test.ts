import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Editor auto-import offers every entry's names side by side: a `/testing` name equal to a main-entry name
// (a stored `Pixel` beside the SDK's `Pixel`) gets picked by mistake. Types cannot be listed at runtime, so the
// compiler lists each entry's exports, types included, following `export *`.
const root = join(import.meta.dirname, '../..');
const entries = {
  main: join(root, 'src/index.ts'),
  testing: join(root, 'src/testing/index.ts'),
  msw: join(root, 'src/testing/msw.ts'),
};

function exportedNames(): Record<keyof typeof entries, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json not read');
  const program = ts.createProgram(Object.values(entries), { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const names = (file: string) => {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`no module symbol for ${file}`);
    return checker
      .getExportsOfModule(module)
      .map((s) => s.name)
      .sort();
  };
  return { main: names(entries.main), testing: names(entries.testing), msw: names(entries.msw) };
}

describe('entry names', () => {
  const names = exportedNames();

  it('reads the types of each entry as well as its values', () => {
    expect(names.main).toEqual(expect.arrayContaining(['ManagementClient', 'Pixel', 'Item', 'PIXEL_TYPES']));
    expect(names.testing).toEqual(
      expect.arrayContaining(['createReferenceServer', 'ReferenceServer', 'StoredPixel', 'StoredItem']),
    );
    expect(names.msw).toEqual(expect.arrayContaining(['createMswHandlers', 'MswHandlerOptions']));
  });

  it('gives /testing and /testing/msw no name the main entry (or each other) exports', () => {
    const shared = (a: string[], b: string[]) => a.filter((name) => b.includes(name));
    expect({
      'main & testing': shared(names.main, names.testing),
      'main & msw': shared(names.main, names.msw),
      'testing & msw': shared(names.testing, names.msw),
    }).toEqual({ 'main & testing': [], 'main & msw': [], 'testing & msw': [] });
  });
});
