import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** A `@Tool` method found in source code. */
export interface FoundToolMethod {
  file: string;
  className: string;
  methodName: string;
  /** Decorated parameters: `name` is the `@Param('name')` string, undefined for an unnamed `@Param()`. */
  params: { index: number; name: string | undefined }[];
}

type TypeScriptModule = typeof import('typescript');

/** Loads the TypeScript compiler that typescript-json-schema itself uses, so AST kinds match. */
function loadTypeScript(): TypeScriptModule {
  const base = dirname(require.resolve('typescript-json-schema/package.json'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(require.resolve('typescript', { paths: [base] })) as TypeScriptModule;
}

/** Finds the exported classes' `@Tool` methods in TypeScript files, with their `@Param` parameters. */
export function findToolMethods(files: string[]): FoundToolMethod[] {
  const ts = loadTypeScript();
  const found: FoundToolMethod[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    for (const statement of source.statements) {
      if (!ts.isClassDeclaration(statement) || !statement.name) continue;
      const exported = statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      if (!exported) continue;
      for (const member of statement.members) {
        if (!ts.isMethodDeclaration(member) || !ts.isIdentifier(member.name)) continue;
        if (!decoratorNames(ts, member).includes('Tool')) continue;
        const params = member.parameters.flatMap((parameter, index) => {
          const paramDecorator = decorators(ts, parameter).find((call) => call.name === 'Param');
          if (!paramDecorator) return [];
          const first = paramDecorator.args[0];
          return [{ index, name: first && ts.isStringLiteral(first) ? first.text : undefined }];
        });
        found.push({ file, className: statement.name.text, methodName: member.name.text, params });
      }
    }
  }
  return found;
}

function decorators(
  ts: TypeScriptModule,
  node: import('typescript').Node,
): { name: string; args: readonly import('typescript').Expression[] }[] {
  const list = ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : [];
  return list.flatMap((decorator) => {
    const expression = decorator.expression;
    if (ts.isCallExpression(expression) && ts.isIdentifier(expression.expression)) {
      return [{ name: expression.expression.text, args: expression.arguments }];
    }
    return [];
  });
}

function decoratorNames(ts: TypeScriptModule, node: import('typescript').Node): string[] {
  return decorators(ts, node).map((decorator) => decorator.name);
}
