/**
 * Seeds of the fixed range whose schedules are counterexamples the code does not fix yet: they are left out of
 * adversary.test.ts while the fix is under way (with a named case for each kind in counterexamples.test.ts once
 * it lands). None now.
 */
export const OPEN_SEEDS: number[] = [];

/**
 * The same for the Folder → Copy and Move schedules (folders.ts): a source another writer deletes after the listing,
 * its destination there, is reported "skipped: moved before" (named case: counterexamples.test.ts, "a source another
 * writer deleted after its listing"); its fix is under way.
 */
export const OPEN_FOLDER_SEEDS: number[] = [83, 99];
