package cluster

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// Revision is etcd's current revision: it moves with every write anywhere
// in the cluster. On the embedded control plane it is read from etcd
// itself (a serializable read, well under a millisecond); kube-apiserver
// would need a consistent list for it, about 12 ms a call on 2 cores, and
// the engine reads it at every settle poll. It fails on a cluster whose
// etcd kueue-sim does not run.
func (cp *ControlPlane) Revision(ctx context.Context) (int64, error) {
	c, err := cp.etcdClient()
	if err != nil {
		return 0, err
	}
	resp, err := c.Get(ctx, "/kueue-sim/revision", clientv3.WithSerializable(), clientv3.WithCountOnly())
	if err != nil {
		return 0, fmt.Errorf("reading etcd's revision: %w", err)
	}
	return resp.Header.Revision, nil
}

// etcdState holds the control plane's etcd client, made on first use.
type etcdState struct {
	once   sync.Once
	client *clientv3.Client
	err    error
	writes writeWatch
}

func (cp *ControlPlane) etcdClient() (*clientv3.Client, error) {
	cp.etcd.once.Do(func() {
		if cp.env == nil || cp.env.ControlPlane.Etcd == nil || cp.env.ControlPlane.Etcd.URL == nil {
			cp.etcd.err = errors.New("reading etcd's revision: this control plane's etcd is not kueue-sim's")
			return
		}
		cp.etcd.client, cp.etcd.err = clientv3.New(clientv3.Config{
			Endpoints:   []string{cp.env.ControlPlane.Etcd.URL.String()},
			DialTimeout: 10 * time.Second,
			Logger:      zap.NewNop(),
		})
		if cp.etcd.err != nil {
			cp.etcd.err = fmt.Errorf("connecting to etcd: %w", cp.etcd.err)
		}
	})
	return cp.etcd.client, cp.etcd.err
}

// closeEtcd closes the etcd client, if one was made.
func (cp *ControlPlane) closeEtcd() error {
	if cp.etcd.writes.cancel != nil {
		cp.etcd.writes.cancel()
	}
	if cp.etcd.client == nil {
		return nil
	}
	return cp.etcd.client.Close()
}
