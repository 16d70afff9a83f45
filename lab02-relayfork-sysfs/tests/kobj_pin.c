// SPDX-License-Identifier: GPL-2.0
/*
 * kobj_pin - a test module for lab 02: holds a reference to the kobject
 * behind /sys/relayfork while it is loaded, as any slow holder of a
 * reference could (an open uevent, a child kobject, a driver core lookup).
 *
 * With a reference held, relay_fork's kobject_put() at module exit is not
 * the last one: a module that leaves its files to kobject_put() leaves
 * them in sysfs after its code is gone; kobject_del() removes them anyway.
 * The test unloads relay_fork while this module pins its kobject, checks
 * that /sys/relayfork is gone, then unloads this one, which drops the pin.
 */
#include <linux/fs.h>
#include <linux/kernfs.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/namei.h>

static struct kobject *pinned;

static int __init kobj_pin_init(void)
{
	struct kernfs_node *kn;
	struct path path;
	int err;

	err = kern_path("/sys/relayfork", LOOKUP_DIRECTORY, &path);
	if (err)
		return err;
	/* a sysfs directory's inode leads to its kernfs node, whose priv is the kobject */
	err = -EINVAL;
	if (!strcmp(path.dentry->d_sb->s_type->name, "sysfs")) {
		kn = d_inode(path.dentry)->i_private;
		pinned = kobject_get(kn->priv);
		err = 0;
	}
	path_put(&path);
	return err;
}

static void __exit kobj_pin_exit(void)
{
	kobject_put(pinned);
}

module_init(kobj_pin_init);
module_exit(kobj_pin_exit);
MODULE_DESCRIPTION("Holds a reference to /sys/relayfork's kobject while loaded");
MODULE_LICENSE("GPL");
