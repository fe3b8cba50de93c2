import path from 'node:path';
import * as proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';

export type History = proto.temporal.api.history.v1.IHistory;

/**
 * Workflow histories as proto3 JSON, the format of `temporal workflow show --output json` and of
 * the Web UI's download, so a history from production can be dropped in beside ours.
 *
 * Why not the SDK's `historyToJSON`/`historyFromJSON` (@temporalio/common/lib/proto-utils): in
 * our npm tree grpc's proto-loader holds protobufjs 7 at the top, so @temporalio/common and
 * @temporalio/proto 1.24 each get their own copy of protobufjs 8, and common's protojson refuses
 * the types built by proto's copy ("type must be a Type"; the replay worker's JSON path fails the
 * same way). We use the protojson of the very copy that built the types, whatever the layout.
 */
interface ProtoJson {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options?: { ignoreUnknownFields?: boolean }): unknown;
}
const protoJson = require(
  require.resolve('protobufjs/ext/protojson', { paths: [path.dirname(require.resolve('@temporalio/proto'))] }),
) as ProtoJson;
const historyType = (patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown }).lookupType(
  'temporal.api.history.v1.History',
);

export function historyToJSONObject(history: History): unknown {
  return protoJson.toJson(historyType, proto.temporal.api.history.v1.History.fromObject(history));
}

/** Unknown fields (a newer server's) are ignored, as the SDK's loader does. */
export function historyFromJSONObject(json: unknown): History {
  if (typeof json !== 'object' || json === null || !Array.isArray((json as { events?: unknown }).events))
    throw new TypeError('not a history: expected an object with an array of events');
  return protoJson.fromJson(historyType, json, { ignoreUnknownFields: true }) as History;
}

/** The workflow type a history is of (its first event starts the execution). */
export function workflowTypeOf(history: History): string | undefined {
  return history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? undefined;
}
