/**
 * The functions of a TypeScript file with the lines each spans, from the compiler's own parse: what
 * the function-length tests of the bench and of the packages count.
 */
import ts from "typescript";

/** One function, method or arrow function: where it is and how many lines it spans. */
export interface FunctionSpan {
  readonly where: string;
  readonly lines: number;
}

/** Every function-like node with a body in `text`, named by `label` and the function's name or line. */
export function functionSpans(file: string, text: string, label = file): FunctionSpan[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const spans: FunctionSpan[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name?.getText(source) ?? `line ${start + 1}`;
      spans.push({ where: `${label} ${name}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}
