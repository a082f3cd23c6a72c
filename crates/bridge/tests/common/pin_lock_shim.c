/*
 * A PKCS#11 module in front of a real one (SoftHSM2 in the tests) that locks the user PIN
 * after too many wrong PINs, as USB tokens do and SoftHSM2 never does, so that the bridge's
 * answer to a locked token can be tested.
 *
 *   PIN_LOCK_SHIM_TARGET  the real module (required)
 *   PIN_LOCK_SHIM_TRIES   wrong PINs that lock the token (default 3)
 *   PIN_LOCK_SHIM_STATE   a file keeping the count of wrong PINs; without it the count lives
 *                         only as long as the process. With it the count outlives a bridge
 *                         process, like a token's own retry counter.
 *
 * C_Login for the user counts the real module's CKR_PIN_INCORRECT answers, resets the count
 * on a good PIN and, once the count reaches the limit, answers CKR_PIN_LOCKED without asking
 * the real module, whatever the PIN. C_GetTokenInfo reports the count through the user PIN
 * flags. Everything else is the real module's.
 *
 * Built by the tests: cc -shared -fPIC -I/usr/include/p11-kit-1 -o libpinlock.so
 * pin_lock_shim.c -ldl (the header is Debian's libp11-kit-dev).
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <p11-kit/pkcs11.h>

static CK_FUNCTION_LIST_PTR real;
static CK_FUNCTION_LIST shim;
static CK_RV loaded = CKR_GENERAL_ERROR;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
/* flock() serialises processes, not the threads of one process (they share the lock). */
static pthread_mutex_t count_mutex = PTHREAD_MUTEX_INITIALIZER;
static long memory_count;

static long tries(void) {
    const char *value = getenv("PIN_LOCK_SHIM_TRIES");
    long n = value ? strtol(value, NULL, 10) : 0;
    return n > 0 ? n : 3;
}

/* The state file, locked, or -1 when the count is kept in memory. */
static int open_state(void) {
    const char *path = getenv("PIN_LOCK_SHIM_STATE");
    if (!path || !*path) return -1;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    if (flock(fd, LOCK_EX) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static long read_count(int fd) {
    if (fd < 0) return memory_count;
    char text[32] = {0};
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    return n > 0 ? strtol(text, NULL, 10) : 0;
}

static void write_count(int fd, long count) {
    memory_count = count;
    if (fd < 0) return;
    char text[32];
    int n = snprintf(text, sizeof text, "%ld\n", count);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t)n, 0) != n)
        fprintf(stderr, "pin_lock_shim: the count of wrong PINs was not saved\n");
}

static void close_state(int fd) {
    if (fd >= 0) close(fd);
}

static CK_RV shim_Login(CK_SESSION_HANDLE session, CK_USER_TYPE user, CK_UTF8CHAR_PTR pin, CK_ULONG pin_len) {
    /* The SO PIN has its own counter on a token; only the user PIN is locked here. */
    if (user != CKU_USER) return real->C_Login(session, user, pin, pin_len);
    pthread_mutex_lock(&count_mutex);
    int fd = open_state();
    long count = read_count(fd);
    CK_RV rv;
    if (count >= tries()) {
        rv = CKR_PIN_LOCKED;
    } else {
        rv = real->C_Login(session, user, pin, pin_len);
        if (rv == CKR_PIN_INCORRECT) {
            write_count(fd, count + 1);
        } else if (rv == CKR_OK || rv == CKR_USER_ALREADY_LOGGED_IN) {
            write_count(fd, 0);
        }
    }
    close_state(fd);
    pthread_mutex_unlock(&count_mutex);
    return rv;
}

static CK_RV shim_GetTokenInfo(CK_SLOT_ID slot, CK_TOKEN_INFO_PTR info) {
    CK_RV rv = real->C_GetTokenInfo(slot, info);
    if (rv != CKR_OK || !info) return rv;
    pthread_mutex_lock(&count_mutex);
    int fd = open_state();
    long count = read_count(fd);
    close_state(fd);
    pthread_mutex_unlock(&count_mutex);
    long left = tries() - count;
    info->flags &= ~(CK_FLAGS)(CKF_USER_PIN_COUNT_LOW | CKF_USER_PIN_FINAL_TRY | CKF_USER_PIN_LOCKED);
    /* As PKCS#11 v2.40 defines them: COUNT_LOW after a wrong PIN since the last good one,
     * FINAL_TRY when the next wrong PIN locks, LOCKED when no PIN is accepted any more. */
    if (left <= 0) {
        info->flags |= CKF_USER_PIN_LOCKED;
    } else if (count > 0) {
        info->flags |= CKF_USER_PIN_COUNT_LOW;
        if (left == 1) info->flags |= CKF_USER_PIN_FINAL_TRY;
    }
    return CKR_OK;
}

static CK_RV shim_GetFunctionList(CK_FUNCTION_LIST_PTR_PTR list);

static void load(void) {
    const char *target = getenv("PIN_LOCK_SHIM_TARGET");
    if (!target) {
        fprintf(stderr, "pin_lock_shim: PIN_LOCK_SHIM_TARGET is not set\n");
        return;
    }
    void *module = dlopen(target, RTLD_NOW | RTLD_LOCAL);
    if (!module) {
        fprintf(stderr, "pin_lock_shim: %s\n", dlerror());
        return;
    }
    CK_C_GetFunctionList get = (CK_C_GetFunctionList)dlsym(module, "C_GetFunctionList");
    if (!get || get(&real) != CKR_OK || !real) {
        fprintf(stderr, "pin_lock_shim: %s has no function list\n", target);
        return;
    }
    /* The real module's own list, so that its version and every other entry stay its own. */
    memcpy(&shim, real, sizeof shim);
    shim.C_GetFunctionList = shim_GetFunctionList;
    shim.C_Login = shim_Login;
    shim.C_GetTokenInfo = shim_GetTokenInfo;
    loaded = CKR_OK;
}

static CK_RV shim_GetFunctionList(CK_FUNCTION_LIST_PTR_PTR list) {
    if (!list) return CKR_ARGUMENTS_BAD;
    pthread_once(&load_once, load);
    if (loaded != CKR_OK) return loaded;
    *list = &shim;
    return CKR_OK;
}

__attribute__((visibility("default"))) CK_RV C_GetFunctionList(CK_FUNCTION_LIST_PTR_PTR list) {
    return shim_GetFunctionList(list);
}
