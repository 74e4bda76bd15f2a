package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"
)

// profiler fetches a CPU profile of the manager through its opt-in pprof endpoint (loopback).
type profiler struct {
	file    string
	seconds int
	addr    string
	done    chan error
	// extra are more manager flags (-manager-arg).
	extra []string
}

// managerArgs are the manager flags the profile needs: none without -cpuprofile.
func (p *profiler) managerArgs() ([]string, error) {
	if p.file == "" {
		return p.extra, nil
	}
	addr, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	p.addr = addr
	return append([]string{"--pprof-bind-address", p.addr}, p.extra...), nil
}

// start begins a profile of p.seconds in the background.
func (p *profiler) start(ctx context.Context) {
	if p.file == "" {
		return
	}
	p.done = make(chan error, 1)
	go func() {
		url := "http://" + p.addr + "/debug/pprof/profile?seconds=" + strconv.Itoa(p.seconds)
		c := &http.Client{Timeout: time.Duration(p.seconds+30) * time.Second}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			p.done <- err
			return
		}
		resp, err := c.Do(req)
		if err != nil {
			p.done <- err
			return
		}
		defer func() { _ = resp.Body.Close() }()
		f, err := os.Create(p.file)
		if err != nil {
			p.done <- err
			return
		}
		_, err = io.Copy(f, resp.Body)
		p.done <- errorsJoin(err, f.Close())
	}()
}

// wait returns once the profile is written, and says where.
func (p *profiler) wait() error {
	if p.done == nil {
		return nil
	}
	if err := <-p.done; err != nil {
		return fmt.Errorf("the manager's CPU profile: %w", err)
	}
	fmt.Printf("\nmanager CPU profile (%d s from the first round on): %s (go tool pprof -top %s)\n",
		p.seconds, p.file, p.file)
	return nil
}

func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// apiServerProfileSeconds is how long each batch's kube-apiserver profile runs: shorter than an
// 8-client batch of 1,000 creates, so the profile holds nothing but the batch.
const apiServerProfileSeconds = 2

// profileAPIServer takes a CPU profile of kube-apiserver (its /debug/pprof, as the admin) during
// a batch, when -apiserver-profiles is set and the batch has 8 clients and 1,000 creates or
// more, into DIR/<group>-<first call>.prof; the channel yields once it is written (at once when
// no profile is taken). Comparing the modes' profiles, scaled by their throughput, shows what the
// API server does per create for one group that it does not for another.
func (b *bench) profileAPIServer(ctx context.Context, group string, first, n, clients int) <-chan error {
	done := make(chan error, 1)
	if b.apiProfiles == "" || clients != 8 || n < 1000 {
		done <- nil
		return done
	}
	go func() {
		cs, err := kubernetes.NewForConfig(b.local.Admin)
		if err != nil {
			done <- err
			return
		}
		data, err := cs.RESTClient().Get().AbsPath("/debug/pprof/profile").
			Param("seconds", strconv.Itoa(apiServerProfileSeconds)).DoRaw(ctx)
		if err != nil {
			done <- err
			return
		}
		name := fmt.Sprintf("%s-%d.prof", strings.SplitN(group, ".", 2)[0], first)
		done <- os.WriteFile(filepath.Join(b.apiProfiles, name), data, 0o600)
	}()
	return done
}
