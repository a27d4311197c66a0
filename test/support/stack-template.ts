/**
 * The synthesised stack for its integration tests (one synth per calling file), and the lookups they share: logical
 * ids of functions, tables and constructs, the IAM statements of a function's role and the tables they name.
 */
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll } from 'vitest';
import type { VidbotStack } from '#infra/stack.ts';
import { type FunctionDecl, type FunctionName, functions, type TableName, tables } from '#infra/wiring.ts';
import { synthStack } from './synth.ts';

export type Resources = Record<string, { Type: string; Properties: any; DeletionPolicy?: string }>;

export const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
export const functionNames = Object.keys(functions) as FunctionName[];
export const decl = (name: FunctionName) => functions[name] as FunctionDecl;
export const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
/** What active tracing grants (on "*": X-Ray's trace actions have no resource type). */
export const XRAY_ACTIONS = ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'];

export let stack: VidbotStack;
export let template: Template;
export let resources: Resources;

/** Logical id of a construct's CloudFormation resource. */
export const idOf = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
export const fnId = (name: FunctionName) => stack.getLogicalId(stack.functions[name].node.defaultChild as CfnElement);
const tableId = (name: TableName) => `${pascal(name)}Table`;

/** Every IAM statement attached to a function's role, flattened. */
export function statementsOf(name: FunctionName): { Action: string | string[]; Resource: unknown }[] {
  const roleId = stack.getLogicalId(stack.functions[name].role!.node.defaultChild as CfnElement);
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(roleId))
    .flatMap((r) => r.Properties.PolicyDocument.Statement);
}
export const actionsOf = (s: { Action: string | string[] }) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
/** Logical ids of this stack's tables a statement refers to. */
export function tablesIn(statement: { Resource: unknown }): TableName[] {
  const text = JSON.stringify(statement.Resource);
  return (Object.keys(tables) as TableName[]).filter((t) => text.includes(`"${tableLogicalIds[t]}"`));
}
export let tableLogicalIds: Record<TableName, string>;

/** Synthesises the stack (with stand-ins for the build outputs) before the calling file's tests. */
export function useSynthesizedStack() {
  beforeAll(() => {
    ({ stack } = synthStack());
    template = Template.fromStack(stack);
    resources = template.toJSON().Resources;
    tableLogicalIds = Object.fromEntries(
      Object.entries(resources)
        .filter(([, r]) => r.Type === 'AWS::DynamoDB::Table')
        .map(([id]) => [(Object.keys(tables) as TableName[]).find((t) => id.startsWith(tableId(t)))!, id]),
    ) as Record<TableName, string>;
  }, 300_000);
}
