#include "CParleyMail.h"
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/select.h>

static int64_t parley_epoch(const struct mailimap_date_time *date) {
    if (date == NULL) return -1;
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    tm.tm_year = date->dt_year - 1900;
    tm.tm_mon = date->dt_month - 1;
    tm.tm_mday = date->dt_day;
    tm.tm_hour = date->dt_hour;
    tm.tm_min = date->dt_min;
    tm.tm_sec = date->dt_sec;
    int64_t seconds = (int64_t)timegm(&tm);
    /* dt_zone is +HHMM as an integer: 200 means +02:00. */
    int zone = date->dt_zone;
    int sign = zone < 0 ? -1 : 1;
    zone *= sign;
    int offset = sign * ((zone / 100) * 3600 + (zone % 100) * 60);
    return seconds - offset;
}

static unsigned parley_flag_bits(clist *flags) {
    unsigned bits = 0;
    if (flags == NULL) return 0;
    for (clistiter *cur = clist_begin(flags); cur != NULL; cur = clist_next(cur)) {
        struct mailimap_flag_fetch *fetch = clist_content(cur);
        if (fetch == NULL || fetch->fl_type != MAILIMAP_FLAG_FETCH_OTHER || fetch->fl_flag == NULL) continue;
        switch (fetch->fl_flag->fl_type) {
        case MAILIMAP_FLAG_SEEN: bits |= PARLEY_FLAG_SEEN; break;
        case MAILIMAP_FLAG_ANSWERED: bits |= PARLEY_FLAG_ANSWERED; break;
        case MAILIMAP_FLAG_FLAGGED: bits |= PARLEY_FLAG_FLAGGED; break;
        case MAILIMAP_FLAG_DELETED: bits |= PARLEY_FLAG_DELETED; break;
        case MAILIMAP_FLAG_DRAFT: bits |= PARLEY_FLAG_DRAFT; break;
        default: break;
        }
    }
    return bits;
}

void parley_fetched_read(const void *message, parley_fetched *out) {
    memset(out, 0, sizeof *out);
    out->internal_date = -1;
    const struct mailimap_msg_att *att = message;
    if (att == NULL || att->att_list == NULL) return;
    for (clistiter *cur = clist_begin(att->att_list); cur != NULL; cur = clist_next(cur)) {
        struct mailimap_msg_att_item *item = clist_content(cur);
        if (item == NULL) continue;
        if (item->att_type == MAILIMAP_MSG_ATT_ITEM_DYNAMIC) {
            if (item->att_data.att_dyn != NULL) {
                out->flags = parley_flag_bits(item->att_data.att_dyn->att_list);
                out->has_flags = 1;
            }
            continue;
        }
        if (item->att_type != MAILIMAP_MSG_ATT_ITEM_STATIC || item->att_data.att_static == NULL) continue;
        struct mailimap_msg_att_static *value = item->att_data.att_static;
        switch (value->att_type) {
        case MAILIMAP_MSG_ATT_UID:
            out->uid = value->att_data.att_uid;
            break;
        case MAILIMAP_MSG_ATT_RFC822_SIZE:
            out->size = value->att_data.att_rfc822_size;
            out->has_size = 1;
            break;
        case MAILIMAP_MSG_ATT_INTERNALDATE:
            out->internal_date = parley_epoch(value->att_data.att_internal_date);
            break;
        case MAILIMAP_MSG_ATT_BODY_SECTION:
            if (value->att_data.att_body_section != NULL) {
                out->body = value->att_data.att_body_section->sec_body_part;
                out->body_length = out->body == NULL ? 0 : value->att_data.att_body_section->sec_length;
                out->has_body = 1;
            }
            break;
        default:
            break;
        }
    }
}

static struct mailimap_fetch_type *parley_fetch_type(int flags, int size, int date, int body) {
    struct mailimap_fetch_type *type = mailimap_fetch_type_new_fetch_att_list_empty();
    if (type == NULL) return NULL;
    mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_uid());
    if (flags) mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_flags());
    if (size) mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_rfc822_size());
    if (date) mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_internaldate());
    if (body) mailimap_fetch_type_new_fetch_att_list_add(type, mailimap_fetch_att_new_body_peek_section(mailimap_section_new(NULL)));
    return type;
}

struct mailimap_fetch_type *parley_fetch_type_sizes(void) { return parley_fetch_type(0, 1, 0, 0); }
struct mailimap_fetch_type *parley_fetch_type_flags(void) { return parley_fetch_type(1, 0, 0, 0); }
struct mailimap_fetch_type *parley_fetch_type_messages(void) { return parley_fetch_type(1, 1, 1, 1); }

struct mailimap_set *parley_uid_range(uint32_t first, uint32_t last) {
    return mailimap_set_new_interval(first, last);
}

int parley_selection(mailimap *session, uint32_t *uidvalidity, uint32_t *uidnext, uint32_t *exists) {
    if (session == NULL || session->imap_selection_info == NULL) return -1;
    *uidvalidity = session->imap_selection_info->sel_uidvalidity;
    *uidnext = session->imap_selection_info->sel_uidnext;
    *exists = session->imap_selection_info->sel_exists;
    return 0;
}

const char *parley_mailbox_name(const void *item, int *selectable) {
    const struct mailimap_mailbox_list *mailbox = item;
    *selectable = 1;
    if (mailbox == NULL) { *selectable = 0; return NULL; }
    struct mailimap_mbx_list_flags *flags = mailbox->mb_flag;
    if (flags != NULL) {
        if (flags->mbf_type == MAILIMAP_MBX_LIST_FLAGS_SFLAG && flags->mbf_sflag == MAILIMAP_MBX_LIST_SFLAG_NOSELECT) {
            *selectable = 0;
        }
        if (flags->mbf_oflags != NULL) {
            for (clistiter *cur = clist_begin(flags->mbf_oflags); cur != NULL; cur = clist_next(cur)) {
                struct mailimap_mbx_list_oflag *oflag = clist_content(cur);
                if (oflag != NULL && oflag->of_type == MAILIMAP_MBX_LIST_OFLAG_FLAG_EXT && oflag->of_flag_ext != NULL
                    && strcasecmp(oflag->of_flag_ext, "NonExistent") == 0) {
                    *selectable = 0;
                }
            }
        }
    }
    return mailbox->mb_name;
}

clistiter *parley_list_first(clist *list) { return list == NULL ? NULL : clist_begin(list); }
clistiter *parley_list_next(clistiter *iterator) { return iterator == NULL ? NULL : clist_next(iterator); }
void *parley_list_data(clistiter *iterator) { return iterator == NULL ? NULL : clist_content(iterator); }

const char *parley_last_response(mailimap *session) {
    return session == NULL ? NULL : session->imap_response;
}

int parley_uid_add_flag(mailimap *session, struct mailimap_set *set, int answered) {
    struct mailimap_flag_list *flags = mailimap_flag_list_new_empty();
    if (flags == NULL) return MAILIMAP_ERROR_MEMORY;
    struct mailimap_flag *flag = answered ? mailimap_flag_new_answered() : mailimap_flag_new_seen();
    if (flag == NULL || mailimap_flag_list_add(flags, flag) != MAILIMAP_NO_ERROR) {
        if (flag != NULL) mailimap_flag_free(flag);
        mailimap_flag_list_free(flags);
        return MAILIMAP_ERROR_MEMORY;
    }
    struct mailimap_store_att_flags *store = mailimap_store_att_flags_new_add_flags_silent(flags);
    if (store == NULL) {
        mailimap_flag_list_free(flags);
        return MAILIMAP_ERROR_MEMORY;
    }
    int result = mailimap_uid_store(session, set, store);
    mailimap_store_att_flags_free(store);
    return result;
}

int parley_append_seen(mailimap *session, const char *mailbox, const char *message, size_t length) {
    struct mailimap_flag_list *flags = mailimap_flag_list_new_empty();
    if (flags == NULL) return MAILIMAP_ERROR_MEMORY;
    struct mailimap_flag *seen = mailimap_flag_new_seen();
    if (seen == NULL || mailimap_flag_list_add(flags, seen) != MAILIMAP_NO_ERROR) {
        if (seen != NULL) mailimap_flag_free(seen);
        mailimap_flag_list_free(flags);
        return MAILIMAP_ERROR_MEMORY;
    }
    int result = mailimap_append(session, mailbox, flags, NULL, message, length);
    mailimap_flag_list_free(flags);
    return result;
}

/* libetpan exports its response parser but 1.9.4 installs no header for it. */
int mailimap_response_parse(mailstream *fd, MMAPString *buffer, struct mailimap_parser_context *parser_ctx,
                            size_t *indx, struct mailimap_response **result, size_t progr_rate,
                            progress_function *progr_fun);

int parley_parse_response(const char *bytes, size_t length,
                          void (*each)(const parley_fetched *fetched, void *context), void *context) {
    mailimap *session = mailimap_new(0, NULL);
    if (session == NULL) return MAILIMAP_ERROR_MEMORY;
    struct mailimap_parser_context *parser = mailimap_parser_context_new(session);
    MMAPString *buffer = mmap_string_new_len(bytes, length);
    int result = MAILIMAP_ERROR_MEMORY;
    if (parser != NULL && buffer != NULL) {
        size_t index = 0;
        struct mailimap_response *response = NULL;
        /* No stream: whatever the parser would have to wait for is MAILIMAP_ERROR_NEEDS_MORE_DATA. */
        result = mailimap_response_parse(NULL, buffer, parser, &index, &response, 0, NULL);
        if (result == MAILIMAP_NO_ERROR && response != NULL) {
            clist *items = response->rsp_cont_req_or_resp_data_list;
            for (clistiter *cur = items == NULL ? NULL : clist_begin(items); cur != NULL; cur = clist_next(cur)) {
                struct mailimap_cont_req_or_resp_data *item = clist_content(cur);
                if (item == NULL || item->rsp_type != MAILIMAP_RESP_RESP_DATA || item->rsp_data.rsp_resp_data == NULL) continue;
                struct mailimap_response_data *data = item->rsp_data.rsp_resp_data;
                if (data->rsp_type != MAILIMAP_RESP_DATA_TYPE_MESSAGE_DATA || data->rsp_data.rsp_message_data == NULL) continue;
                struct mailimap_message_data *message = data->rsp_data.rsp_message_data;
                if (message->mdt_type != MAILIMAP_MESSAGE_DATA_FETCH || message->mdt_msg_att == NULL) continue;
                parley_fetched fetched;
                parley_fetched_read(message->mdt_msg_att, &fetched);
                each(&fetched, context);
            }
        }
        if (response != NULL) mailimap_response_free(response);
    }
    if (buffer != NULL) mmap_string_free(buffer);
    if (parser != NULL) mailimap_parser_context_free(parser);
    mailimap_free(session);
    return result;
}

/* Exported by libetpan 1.9.4 but not in its installed headers. */
int mailstream_cancel_get_fd(struct mailstream_cancel *cancel);

mailstream *parley_stream_open(int fd, time_t timeout) {
    int low = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (low < 0) { close(fd); return NULL; }
    close(fd);
    if (low >= FD_SETSIZE) { close(low); return NULL; }
    mailstream *stream = mailstream_socket_open_timeout(low, timeout);
    if (stream == NULL) { close(low); return NULL; }
    struct mailstream_cancel *cancel = mailstream_low_get_cancel(mailstream_get_low(stream));
    int cancel_fd = cancel == NULL ? -1 : mailstream_cancel_get_fd(cancel);
    if (cancel_fd < 0 || cancel_fd >= FD_SETSIZE) {
        mailstream_close(stream);  /* closes `low` too */
        return NULL;
    }
    return stream;
}
