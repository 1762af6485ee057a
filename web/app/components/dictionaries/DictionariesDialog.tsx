import { useState } from "react";
import { Dialog } from "../Dialog.js";
import { useCsrfToken } from "../Csrf.js";
import { DictionaryDetail } from "./DictionaryDetail.js";
import { DictionaryList } from "./DictionaryList.js";
import "../../styles/dictionaries.css";

/**
 * The pronunciation dictionary editor (app-shell.md §2), opened by ?pronunciation-dictionaries=true
 * over any page: the list, then one dictionary's rules. Which dictionary is open is dialog
 * state, so closing and reopening starts at the list.
 */
export function DictionariesDialog({ onClose }: { onClose: () => void }) {
  const csrf = useCsrfToken();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Dialog title="Pronunciation dictionaries" onClose={onClose}>
      <div className="dictionaries">
        {open ? <DictionaryDetail key={open} id={open} csrf={csrf} onBack={() => setOpen(null)} /> : <DictionaryList csrf={csrf} onOpen={setOpen} />}
      </div>
    </Dialog>
  );
}
