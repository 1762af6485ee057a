import type { ApiRouter } from "../../../platform/http/app.js";
import { json } from "../../../platform/http/types.js";
import { jsonBody } from "../../../platform/http/validate.js";
import { CreateCollectionBody, UpdateCollectionBody } from "../../../platform/contract/voices.js";
import {
  addVoiceToCollection,
  createCollection,
  deleteCollection,
  listCollections,
  readableCollection,
  removeVoiceFromCollection,
  updateCollection,
} from "../collections.js";
import { collectionWire } from "../wire.js";

/** Voice collections (contract §2, `voices.collections.*`). */
export function registerCollections(r: ApiRouter): void {
  const base = "/v1/voices/collections";

  r.get(base, async (_req, rc) => {
    const list = await listCollections(rc.app, await rc.caller());
    return json({ collections: list.map((c) => collectionWire(c.collection, c.role)) });
  });

  r.post(base, async (req, rc) => {
    const caller = await rc.caller();
    const c = await createCollection(rc.app, caller, jsonBody(req, CreateCollectionBody));
    return json(collectionWire(c, "admin", []));
  });

  r.get(`${base}/:collection_id`, async (req, rc) => {
    const caller = await rc.caller();
    const { collection, role } = await readableCollection(rc.app, caller, req.params.collection_id);
    const members = await rc.app.stores.collections.members(caller.workspaceId, collection.collection_id);
    return json(collectionWire(collection, role, members.map((m) => m.voice_id)));
  });

  r.patch(`${base}/:collection_id`, async (req, rc) => {
    const { collection, role } = await updateCollection(rc.app, await rc.caller(), req.params.collection_id, jsonBody(req, UpdateCollectionBody));
    return json(collectionWire(collection, role));
  });

  r.delete(`${base}/:collection_id`, async (req, rc) => {
    await deleteCollection(rc.app, await rc.caller(), req.params.collection_id);
    return json({ collection_id: req.params.collection_id });
  });

  r.post(`${base}/:collection_id/voice/:voice_id`, async (req, rc) => {
    await addVoiceToCollection(rc.app, await rc.caller(), req.params.collection_id, req.params.voice_id);
    return json({ collection_id: req.params.collection_id, voice_id: req.params.voice_id });
  });

  r.delete(`${base}/:collection_id/voice/:voice_id`, async (req, rc) => {
    await removeVoiceFromCollection(rc.app, await rc.caller(), req.params.collection_id, req.params.voice_id);
    return json({ collection_id: req.params.collection_id, voice_id: req.params.voice_id });
  });
}
