// Parley's window onto libetpan (Debian libetpan-dev): its IMAP client, and small helpers that flatten the
// parts of a FETCH response Parley uses, since libetpan's lists and unions are awkward from Swift.
#ifndef CPARLEYMAIL_H
#define CPARLEYMAIL_H

#include <stddef.h>
#include <stdint.h>
#include <libetpan/libetpan.h>

/// Flag bits as docs/MAIL.md §3 stores them.
enum {
    PARLEY_FLAG_SEEN = 1,
    PARLEY_FLAG_ANSWERED = 2,
    PARLEY_FLAG_FLAGGED = 4,
    PARLEY_FLAG_DELETED = 8,
    PARLEY_FLAG_DRAFT = 16,
};

/// One message of a FETCH response. `body` points into libetpan's result and lives as long as it does.
typedef struct parley_fetched {
    uint32_t uid;
    uint32_t size;
    int has_size;
    unsigned flags;
    int has_flags;
    int64_t internal_date; /* seconds since 1970, or -1 when absent */
    const char *body;
    size_t body_length;
    int has_body;
} parley_fetched;

/// Reads one `struct mailimap_msg_att *` (an element of the list mailimap_uid_fetch returns).
void parley_fetched_read(const void *message, parley_fetched *out);

/// UID RFC822.SIZE — what is new, without bodies.
struct mailimap_fetch_type *parley_fetch_type_sizes(void);
/// UID FLAGS — flag refresh and expunge detection.
struct mailimap_fetch_type *parley_fetch_type_flags(void);
/// UID FLAGS RFC822.SIZE INTERNALDATE BODY.PEEK[] — whole messages, without setting \Seen.
struct mailimap_fetch_type *parley_fetch_type_messages(void);

/// A UID range `first:last`; last 0 means `*`.
struct mailimap_set *parley_uid_range(uint32_t first, uint32_t last);

/// The selected mailbox's UIDVALIDITY, UIDNEXT and EXISTS; returns 0 when libetpan has them.
int parley_selection(mailimap *session, uint32_t *uidvalidity, uint32_t *uidnext, uint32_t *exists);

/// The name of one `struct mailimap_mailbox_list *` and whether it can be selected.
const char *parley_mailbox_name(const void *item, int *selectable);

/// clist walking (libetpan's are macros Swift cannot call).
clistiter *parley_list_first(clist *list);
clistiter *parley_list_next(clistiter *iterator);
void *parley_list_data(clistiter *iterator);

/// UID STORE set +FLAGS.SILENT (\\Seen, or \\Answered when `answered`); returns libetpan's code.
int parley_uid_add_flag(mailimap *session, struct mailimap_set *set, int answered);

/// APPEND a message to `mailbox` with \\Seen set.
int parley_append_seen(mailimap *session, const char *mailbox, const char *message, size_t length);

/// Parses one complete IMAP response (untagged lines through the tagged one) held in memory with libetpan's
/// parser, and hands each FETCH result to `each`, flattened. Returns libetpan's code. For the fuzz target: the
/// same parser and flattening a sync runs, without a network.
int parley_parse_response(const char *bytes, size_t length,
                          void (*each)(const parley_fetched *fetched, void *context), void *context);

/// libetpan's socket stream over `fd` with `timeout` seconds, or NULL — also when `fd` or the cancel pipe libetpan
/// makes for it is past FD_SETSIZE: libetpan waits with select(), and glibc aborts the process on such a descriptor.
/// `fd` is first moved to the lowest free descriptor. On NULL, `fd` is closed.
mailstream *parley_stream_open(int fd, time_t timeout);

/// The response text of the last tagged answer (for NO/BAD), or NULL.
const char *parley_last_response(mailimap *session);

#endif
