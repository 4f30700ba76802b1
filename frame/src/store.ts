// The frame origin's localStorage, for the two things the frame keeps across loads: the device id
// and the session token per embedding origin and project. Storage can be disabled (a blocked third-party
// context, a full quota, a privacy mode that throws on access): every call then falls back to an
// in-memory map, so the frame still works for the life of the page. While storage works it is the
// only source of truth (another tab of the frame may have signed out).

export interface Store {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

/** The device id of one embedding origin: every site is its own device to the wallet service. */
export const deviceKey = (origin: string): string => `wm-frame/device/${origin}`;
/** The session of one embedding origin for one project (a wallet is scoped per project). */
export const sessionKey = (origin: string, projectId: string): string => `wm-frame/session/${origin}/${projectId}`;

/** A store over `storage` (localStorage in the browser) that never throws. */
export function createStore(storage: () => Storage | null | undefined): Store {
  const memory = new Map<string, string>();
  const backing = (): Storage | null => {
    try {
      return storage() ?? null;
    } catch {
      return null;
    }
  };
  return {
    get(key) {
      const s = backing();
      if (s) {
        try {
          return s.getItem(key);
        } catch {
          // fall through to memory
        }
      }
      return memory.get(key) ?? null;
    },
    set(key, value) {
      memory.set(key, value);
      try {
        backing()?.setItem(key, value);
      } catch {
        // memory only
      }
    },
    remove(key) {
      memory.delete(key);
      try {
        backing()?.removeItem(key);
      } catch {
        // memory only
      }
    },
  };
}
