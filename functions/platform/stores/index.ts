import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { Table } from "./table.js";
import { Users } from "./users.js";
import { Workspaces } from "./workspaces.js";
import { ApiKeys, Sessions } from "./credentials.js";
import { Ledger } from "./ledger.js";
import { Voices } from "./voices.js";
import { History } from "./history.js";
import { Dictionaries } from "./dictionaries.js";
import { Library } from "./library.js";
import { Collections } from "./collections.js";
import { Events } from "./events.js";
import { PvcUploads } from "./pvcUploads.js";
import { GeneratedVoices } from "./generatedVoices.js";
import { Invites } from "./invites.js";
import { Webhooks } from "./webhooks.js";
import { Engagement } from "./engagement.js";
import { ManualVerifications } from "./manualVerifications.js";
import { ProducerTeams } from "./producerTeams.js";
import { LiveReadings } from "./liveReadings.js";
import { AssistantCalls } from "./assistantCalls.js";

/** Every entity store, bound to the configured tables. */
export interface Stores {
  tables: { main: Table; history: Table; ledger: Table; library: Table };
  users: Users;
  workspaces: Workspaces;
  apiKeys: ApiKeys;
  sessions: Sessions;
  ledger: Ledger;
  voices: Voices;
  history: History;
  dictionaries: Dictionaries;
  library: Library;
  collections: Collections;
  events: Events;
  pvcUploads: PvcUploads;
  generatedVoices: GeneratedVoices;
  invites: Invites;
  webhooks: Webhooks;
  engagement: Engagement;
  manualVerifications: ManualVerifications;
  producerTeams: ProducerTeams;
  liveReadings: LiveReadings;
  assistantCalls: AssistantCalls;
}

export function createStores(doc: DynamoDBDocumentClient, names: { main: string; history: string; ledger: string; library: string }): Stores {
  const main = new Table(doc, names.main);
  const history = new Table(doc, names.history);
  const ledger = new Table(doc, names.ledger);
  const library = new Table(doc, names.library);
  return {
    tables: { main, history, ledger, library },
    users: new Users(main),
    workspaces: new Workspaces(main),
    apiKeys: new ApiKeys(main),
    sessions: new Sessions(main),
    ledger: new Ledger(ledger),
    voices: new Voices(main),
    history: new History(history),
    dictionaries: new Dictionaries(main),
    library: new Library(library),
    collections: new Collections(main),
    events: new Events(main),
    pvcUploads: new PvcUploads(main),
    generatedVoices: new GeneratedVoices(main),
    invites: new Invites(main),
    webhooks: new Webhooks(main),
    engagement: new Engagement(main),
    manualVerifications: new ManualVerifications(main),
    producerTeams: new ProducerTeams(main),
    liveReadings: new LiveReadings(ledger),
    assistantCalls: new AssistantCalls(ledger),
  };
}
