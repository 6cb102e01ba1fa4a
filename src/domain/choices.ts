// The closed lists a user picks from on the command line, zod-free so that `--help` loads nothing to print them.

/** The sandbox backends a user may ask for (`auto`: the strongest available; docs/sandboxes.md). */
export const SANDBOX_CHOICES = ['auto', 'docker', 'bwrap', 'unshare'] as const;

/** The learning-management systems whose bulk downloads `grade --from` reads. */
export const LMS_SYSTEMS = ['canvas', 'moodle', 'blackboard', 'gradescope'] as const;

/** Systems `report --to` writes an import file for (`csv`: a plain id,name,points,feedback sheet). */
export const LMS_TARGETS = ['canvas', 'moodle', 'blackboard', 'csv'] as const;

/** `grade --attempts`: the latest attempt per student, or every attempt as its own submission. */
export const ATTEMPT_CHOICES = ['latest', 'all'] as const;
