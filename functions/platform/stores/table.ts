import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  BatchWriteCommand,
  BatchGetCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
  type UpdateCommandInput,
} from "@aws-sdk/lib-dynamodb";

export type Item = Record<string, unknown>;
export interface Key {
  pk: string;
  sk: string;
}

export function isConditionalFailure(e: unknown): boolean {
  return (e as { name?: string })?.name === "ConditionalCheckFailedException";
}

/**
 * A thin typed wrapper over one DynamoDB table. Entity modules build keys; this class
 * only moves items. Single-item conditional writes only: dynalite has no transactions.
 */
export class Table {
  constructor(
    readonly doc: DynamoDBDocumentClient,
    readonly name: string,
  ) {}

  async get<T extends object>(key: Key, consistent = true, projection?: string[]): Promise<T | undefined> {
    const names = projection ? Object.fromEntries(projection.map((a, i) => [`#p${i}`, a])) : undefined;
    const r = await this.doc.send(
      new GetCommand({ TableName: this.name, Key: key, ConsistentRead: consistent, ProjectionExpression: names && Object.keys(names).join(", "), ExpressionAttributeNames: names }),
    );
    return r.Item as T | undefined;
  }

  /** Put; with `ifAbsent` the write fails (returns false) when the key already exists. */
  async put(item: Item & Key, opts: { ifAbsent?: boolean; condition?: string; names?: Record<string, string>; values?: Item } = {}): Promise<boolean> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.name,
          Item: item,
          ConditionExpression: opts.ifAbsent ? "attribute_not_exists(pk)" : opts.condition,
          ExpressionAttributeNames: opts.names,
          ExpressionAttributeValues: opts.values,
        }),
      );
      return true;
    } catch (e) {
      if ((opts.ifAbsent || opts.condition) && isConditionalFailure(e)) return false;
      throw e;
    }
  }

  /** Update; returns the new item, or undefined when the condition failed. */
  async update<T extends object>(
    key: Key,
    input: Pick<UpdateCommandInput, "UpdateExpression" | "ConditionExpression" | "ExpressionAttributeNames" | "ExpressionAttributeValues">,
    returnValues: "ALL_NEW" | "UPDATED_NEW" = "ALL_NEW",
  ): Promise<T | undefined> {
    try {
      const r = await this.doc.send(new UpdateCommand({ TableName: this.name, Key: key, ReturnValues: returnValues, ...input }));
      return r.Attributes as T;
    } catch (e) {
      if (input.ConditionExpression && isConditionalFailure(e)) return undefined;
      throw e;
    }
  }

  /** SET the given fields on an existing item; returns the new item, or undefined when it does not exist. */
  async patch<T extends object>(key: Key, fields: Item): Promise<T | undefined> {
    const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
    if (!entries.length) return this.get<T>(key);
    const names: Record<string, string> = {};
    const values: Item = {};
    const sets = entries.map(([k, v], i) => {
      names[`#f${i}`] = k;
      values[`:v${i}`] = v;
      return `#f${i} = :v${i}`;
    });
    return this.update<T>(key, {
      UpdateExpression: `SET ${sets.join(", ")}`,
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    });
  }

  /** Delete; with a condition, returns false when it failed. */
  async delete(key: Key, condition?: { expression: string; names?: Record<string, string>; values?: Item }): Promise<boolean> {
    try {
      await this.doc.send(
        new DeleteCommand({
          TableName: this.name,
          Key: key,
          ConditionExpression: condition?.expression,
          ExpressionAttributeNames: condition?.names,
          ExpressionAttributeValues: condition?.values,
        }),
      );
      return true;
    } catch (e) {
      if (condition && isConditionalFailure(e)) return false;
      throw e;
    }
  }

  /** Query one partition (or GSI partition), following pages up to `limit` items. */
  async query<T extends object>(
    input: Omit<QueryCommandInput, "TableName" | "ExclusiveStartKey" | "Limit"> & { limit?: number; startKey?: Item },
  ): Promise<{ items: T[]; lastKey?: Item }> {
    const { limit, startKey, ...rest } = input;
    const items: T[] = [];
    let exclusiveStartKey = startKey;
    do {
      const r = await this.doc.send(
        new QueryCommand({
          TableName: this.name,
          ...rest,
          ExclusiveStartKey: exclusiveStartKey,
          Limit: limit ? Math.max(1, limit - items.length) : undefined,
        }),
      );
      items.push(...((r.Items ?? []) as T[]));
      exclusiveStartKey = r.LastEvaluatedKey;
      if (limit && items.length >= limit) break;
    } while (exclusiveStartKey);
    return { items, lastKey: exclusiveStartKey };
  }

  /** All items of a partition whose sort key starts with `prefix`. */
  async queryPrefix<T extends object>(pk: string, prefix: string, opts: { index?: "gsi1" | "gsi2"; newestFirst?: boolean; limit?: number } = {}): Promise<T[]> {
    const p = opts.index ? `${opts.index}pk` : "pk";
    const s = opts.index ? `${opts.index}sk` : "sk";
    const r = await this.query<T>({
      IndexName: opts.index,
      KeyConditionExpression: "#p = :p AND begins_with(#s, :s)",
      ExpressionAttributeNames: { "#p": p, "#s": s },
      ExpressionAttributeValues: { ":p": pk, ":s": prefix },
      ScanIndexForward: !opts.newestFirst,
      limit: opts.limit,
    });
    return r.items;
  }

  /** Items by key, in no particular order; missing keys are absent from the result. */
  async batchGet<T extends object>(keys: Key[], opts: { projection?: string; names?: Record<string, string> } = {}): Promise<T[]> {
    const out: T[] = [];
    for (let i = 0; i < keys.length; i += 100) {
      let pending: Key[] = keys.slice(i, i + 100);
      for (let attempt = 0; pending.length && attempt < 5; attempt++) {
        const r = await this.doc.send(
          new BatchGetCommand({
            RequestItems: { [this.name]: { Keys: pending, ProjectionExpression: opts.projection, ExpressionAttributeNames: opts.names } },
          }),
        );
        out.push(...((r.Responses?.[this.name] ?? []) as T[]));
        pending = (r.UnprocessedKeys?.[this.name]?.Keys ?? []) as Key[];
      }
    }
    return out;
  }

  /** Unconditional puts, 25 per request, retrying what DynamoDB leaves unprocessed. */
  async batchPut(items: Array<Item & Key>): Promise<void> {
    for (let i = 0; i < items.length; i += 25) {
      let pending = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; pending.length && attempt < 5; attempt++) {
        const r = await this.doc.send(new BatchWriteCommand({ RequestItems: { [this.name]: pending } }));
        pending = (r.UnprocessedItems?.[this.name] ?? []) as typeof pending;
      }
    }
  }

  async batchDelete(keys: Key[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 25) {
      let pending = keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
      for (let attempt = 0; pending.length && attempt < 5; attempt++) {
        const r = await this.doc.send(new BatchWriteCommand({ RequestItems: { [this.name]: pending } }));
        pending = (r.UnprocessedItems?.[this.name] ?? []) as typeof pending;
      }
    }
  }
}

/** A record as stored: the entity plus its storage keys. */
export type Stored<T> = T & { pk: string; sk: string; gsi1pk?: string; gsi1sk?: string; gsi2pk?: string; gsi2sk?: string; ttl?: number };

/** Strips the storage keys before an item leaves its module. */
export function withoutKeys<T>(item: Stored<T>): T {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, ttl: _t, ...rest } = item as Item;
  return rest as T;
}
