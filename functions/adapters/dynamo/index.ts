import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { Table } from "./table.js";
import { Users } from "./users.js";
import { Workspaces } from "./workspaces.js";
import { ApiKeys, Sessions } from "./credentials.js";
import { Ledger } from "./ledger.js";
import { Voices } from "./voices.js";
import { History } from "./history.js";
import { Dictionaries } from "./dictionaries.js";

/** Every entity store, bound to the configured tables. */
export interface Stores {
  tables: { main: Table; history: Table; ledger: Table };
  users: Users;
  workspaces: Workspaces;
  apiKeys: ApiKeys;
  sessions: Sessions;
  ledger: Ledger;
  voices: Voices;
  history: History;
  dictionaries: Dictionaries;
}

export function createStores(doc: DynamoDBDocumentClient, names: { main: string; history: string; ledger: string }): Stores {
  const main = new Table(doc, names.main);
  const history = new Table(doc, names.history);
  const ledger = new Table(doc, names.ledger);
  return {
    tables: { main, history, ledger },
    users: new Users(main),
    workspaces: new Workspaces(main),
    apiKeys: new ApiKeys(main),
    sessions: new Sessions(main),
    ledger: new Ledger(ledger),
    voices: new Voices(main),
    history: new History(history),
    dictionaries: new Dictionaries(main),
  };
}
