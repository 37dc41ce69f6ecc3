/**
 * The state behind the leave guard (web/ui/leave-guard.tsx): which form holds unsaved changes
 * now, so that Back and logging out can ask it first. Kept apart from the dialog so that the
 * page's start can install the Back handler cheaply, before the router listens.
 */

/** The question's own words, where leaving is not leaving the page (closing a dialog). */
export interface LeaveWords {
  title: string;
  text: string;
  stay: string;
  leave: string;
}

export interface ActiveGuard {
  /** Asks the user; true when they chose to leave (the guard then stands aside). */
  ask(words?: LeaveWords): Promise<boolean>;
  /** Back or Forward left the form's URL. */
  onBack(event: PopStateEvent): void;
}

/** One form at a time holds unsaved changes. */
let active: ActiveGuard | null = null;

/** Makes `guard` the one asked; returns the function that removes it. */
export function activateGuard(guard: ActiveGuard): () => void {
  active = guard;
  return () => {
    if (active === guard) active = null;
  };
}

/** Whether a form holds unsaved changes now. */
export function hasUnsavedChanges(): boolean {
  return active !== null;
}

/**
 * Asks before a step that would drop unsaved changes without navigating first (logging out,
 * closing a dialog: `words` then ask about the dialog, not the page).
 * Resolves true when nothing is unsaved or the user chose to leave.
 */
export function confirmLeave(words?: LeaveWords): Promise<boolean> {
  return active ? active.ask(words) : Promise.resolve(true);
}

/**
 * Call once at start, before the router mounts: listeners of an event run in the order they were
 * added, so this one hears Back before the router does and can keep the form on screen.
 */
export function installLeaveGuard(): void {
  addEventListener('popstate', (event) => active?.onBack(event));
}
