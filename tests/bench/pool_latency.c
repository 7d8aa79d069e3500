/* Why the default pool is pthreadpool: the time one dispatch of two empty
 * tasks takes on two threads, back to back, with pthreadpool and with the
 * plain mutex/condition-variable pool one would write instead (a worker that
 * sleeps between dispatches). Not part of ctest; README's Performance section
 * quotes it.
 *   cc -O2 -pthread tests/bench/pool_latency.c -lpthreadpool && ./a.out */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <pthreadpool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static volatile long sink;
static void task(void*c,size_t i){(void)c;sink+=i;}
/* a plain condvar pool of 1 worker: run n tasks split between caller and worker */
static pthread_mutex_t mu=PTHREAD_MUTEX_INITIALIZER; static pthread_cond_t cv=PTHREAD_COND_INITIALIZER, done=PTHREAD_COND_INITIALIZER;
static long gen, fin; static size_t N;
static void*worker(void*a){(void)a;long seen=0;for(;;){pthread_mutex_lock(&mu);while(gen==seen)pthread_cond_wait(&cv,&mu);seen=gen;pthread_mutex_unlock(&mu);for(size_t i=N/2;i<N;i++)task(0,i);pthread_mutex_lock(&mu);fin=seen;pthread_cond_signal(&done);pthread_mutex_unlock(&mu);}return 0;}
static void own_run(size_t n){pthread_mutex_lock(&mu);N=n;gen++;long g=gen;pthread_cond_signal(&cv);pthread_mutex_unlock(&mu);for(size_t i=0;i<n/2;i++)task(0,i);pthread_mutex_lock(&mu);while(fin!=g)pthread_cond_wait(&done,&mu);pthread_mutex_unlock(&mu);}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return (x>y)-(x<y);}
int main(void){
  pthreadpool_t p=pthreadpool_create(2); enum{R=2000}; static double t[R];
  for(int r=0;r<R;r++){double a=now();pthreadpool_parallelize_1d(p,task,0,2,0);t[r]=now()-a;}
  qsort(t,R,sizeof*t,cmp); printf("pthreadpool 2 threads, 2 tasks: median %.1f us\n",t[R/2]*1e6);
  pthread_t w; pthread_create(&w,0,worker,0);
  for(int r=0;r<R;r++){double a=now();own_run(2);t[r]=now()-a;}
  qsort(t,R,sizeof*t,cmp); printf("condvar pool 2 threads, 2 tasks: median %.1f us\n",t[R/2]*1e6);
  return 0;}
