// Rewrites the immediately called arrows of zod's generated code as labelled blocks, for scripts/generate-parsers.ts.
//
// zod's generator writes each union option, pipe and optional as a statement of the form
//
//     let v8 = (() => { …; return v7; })();          v8 = (() => { … })();          if (c) v8 = (() => { … })();
//
// V8 inlines only the first few of them into a parser (its inlining budget), so every value of a list makes a
// closure and a call per field: a third of what an `items.list` parse costs. The same code as a labelled block,
//
//     let v8; b0: { …; { v8 = v7; break b0; } }
//
// does the same with neither. Only a statement of those three forms is rewritten, and only when its arrow takes
// nothing, ends with a `return`, declares no `var` and never names the variable it sets: then every way out of the
// arrow is a `return` of its own (a `break` or `continue` cannot leave a function), each becomes "set, then leave
// the block", and the block runs exactly what the arrow ran. Anything else is left as zod wrote it; the parity tests
// (test/core/parsers.test.ts) hold the result to zod's interpreter.
import ts from 'typescript';

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** `code` (a function body, as zod hands it to `new Function`) with its flattenable arrows written as blocks. */
export function flattenIifes(code: string): string {
  const prefix = '(function () {\n';
  const source = ts.createSourceFile('parser.js', `${prefix}${code}\n})`, ts.ScriptTarget.Latest, true);
  const text = source.text;
  const edits: Edit[] = [];
  let labels = 0;

  const visit = (node: ts.Node): void => {
    const found = flattenable(node);
    if (found !== undefined) {
      const { target, arrow, head } = found;
      const label = `b${labels++}`;
      const body = arrow.body as ts.Block;
      // `let v8 = (() => {` → `let v8; b0: {`, … `})();` → `}`, each own `return e;` → `{ v8 = e; break b0; }`.
      edits.push({
        start: node.getStart(source),
        end: body.getStart(source) + 1,
        text: `${head}${label}: {`,
      });
      edits.push({ start: body.getEnd() - 1, end: node.getEnd(), text: '}' });
      for (const ret of ownReturns(body)) {
        const expression = ret.expression;
        if (expression === undefined) {
          edits.push({
            start: ret.getStart(source),
            end: ret.getEnd(),
            text: `{ ${target} = undefined; break ${label}; }`,
          });
          continue;
        }
        edits.push({ start: ret.getStart(source), end: expression.getStart(source), text: `{ ${target} = ` });
        edits.push({ start: expression.getEnd(), end: ret.getEnd(), text: `; break ${label}; }` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);

  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const edit of edits) {
    if (edit.start < at) throw new Error('flatten-iifes: two rewrites overlap');
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  out += text.slice(at);
  return out.slice(prefix.length, out.length - '\n})'.length);
}

/** The variable a statement sets, its arrow and what goes before the label, when it is one of the three forms. */
function flattenable(node: ts.Node): { target: string; arrow: ts.ArrowFunction; head: string } | undefined {
  if (ts.isVariableStatement(node)) {
    const list = node.declarationList;
    const [declaration] = list.declarations;
    if (list.declarations.length !== 1 || !(list.flags & ts.NodeFlags.BlockScoped)) return undefined;
    if (declaration === undefined || !ts.isIdentifier(declaration.name)) return undefined;
    const arrow = calledArrow(declaration.initializer);
    const target = declaration.name.text;
    return arrow && usable(arrow, target) ? { target, arrow, head: `let ${target}; ` } : undefined;
  }
  if (ts.isExpressionStatement(node)) {
    const expression = node.expression;
    if (!ts.isBinaryExpression(expression) || expression.operatorToken.kind !== ts.SyntaxKind.EqualsToken)
      return;
    if (!ts.isIdentifier(expression.left)) return undefined;
    const arrow = calledArrow(expression.right);
    const target = expression.left.text;
    return arrow && usable(arrow, target) ? { target, arrow, head: '' } : undefined;
  }
  return undefined;
}

/** The arrow of `(() => { … })()`. */
function calledArrow(expression: ts.Expression | undefined): ts.ArrowFunction | undefined {
  if (expression === undefined || !ts.isCallExpression(expression) || expression.arguments.length > 0) return;
  const callee = expression.expression;
  if (!ts.isParenthesizedExpression(callee) || !ts.isArrowFunction(callee.expression)) return undefined;
  const arrow = callee.expression;
  if (arrow.parameters.length > 0 || arrow.modifiers?.length || !ts.isBlock(arrow.body)) return undefined;
  return arrow;
}

/** An arrow that ends with a `return`, declares no `var` and never names `target`. */
function usable(arrow: ts.ArrowFunction, target: string): boolean {
  const body = arrow.body as ts.Block;
  if (body.statements.at(-1)?.kind !== ts.SyntaxKind.ReturnStatement) return false;
  let clean = true;
  const look = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node.text === target) clean = false;
    if (ts.isVariableDeclarationList(node) && !(node.flags & ts.NodeFlags.BlockScoped)) clean = false;
    if (clean) ts.forEachChild(node, look);
  };
  look(body);
  return clean;
}

/** The `return` statements of `body`'s own function (none of a function nested in it). */
function ownReturns(body: ts.Block): ts.ReturnStatement[] {
  const found: ts.ReturnStatement[] = [];
  const look = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return;
    if (ts.isReturnStatement(node)) found.push(node);
    ts.forEachChild(node, look);
  };
  ts.forEachChild(body, look);
  return found;
}
